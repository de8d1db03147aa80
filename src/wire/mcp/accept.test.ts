// Tests Accept negotiation: JSON by default, SSE only when preferred or the only option, 406 when neither.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AcceptNegotiator, chooseResponseType } from './accept.js';

test('JSON unless text/event-stream is preferred or the only acceptable type', () => {
  const cases: Array<[string | undefined, boolean | null]> = [
    [undefined, false],
    ['', false],
    ['application/json, text/event-stream', false],
    ['text/event-stream, application/json', false],
    ['*/*', false],
    ['application/*', false],
    ['text/event-stream', true],
    ['text/*', true],
    ['application/json;q=0.4, text/event-stream', true],
    ['application/json;q=0, text/event-stream;q=0.1', true],
    ['text/event-stream;q=0.9, application/json;q=0.9', false],
    ['text/html', null],
    ['application/json;q=0', null],
    ['*/*;q=0', null],
    ['garbage', false],
  ];
  for (const [h, want] of cases) assert.equal(chooseResponseType(h), want, String(h));
});

test('the memo answers like the function', () => {
  const n = new AcceptNegotiator();
  for (let i = 0; i < 200; i++) {
    const h = i % 2 ? 'text/event-stream' : `application/json;q=0.${i % 10}, text/event-stream;q=0.5`;
    assert.equal(n.choose(h), chooseResponseType(h));
  }
});
