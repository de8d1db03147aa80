// Tests the store's time helpers: capped exponential backoff, clock-bounded waits, background tracking.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../shared/clock.js';
import { backoffDelay, BackgroundWork, within } from './timing.js';

test('backoffDelay doubles from the base and is capped', () => {
  const b = { baseMs: 250, maxMs: 3_000 };
  assert.deepEqual([1, 2, 3, 4, 5, 6, 100].map((n) => backoffDelay(b, n)), [250, 500, 1_000, 2_000, 3_000, 3_000, 3_000]);
  assert.equal(backoffDelay(b, 0), 250);
});

test('within resolves true when the promise settles first, false when the clock runs out', async () => {
  const clock = new FakeClock();
  let resolve!: () => void;
  const p = new Promise<void>((r) => (resolve = r));
  const fast = within(clock, p, 1_000);
  resolve();
  assert.equal(await fast, true);
  assert.equal(clock.pending, 0, 'the timer is canceled');
  const slow = within(clock, new Promise(() => undefined), 1_000);
  clock.advance(1_000);
  assert.equal(await slow, false);
  assert.equal(await within(clock, Promise.reject(new Error('x')), 10), true, 'a rejection also settles');
});

test('BackgroundWork.idle waits for work started while waiting', async () => {
  const bg = new BackgroundWork();
  const order: string[] = [];
  bg.track(
    (async () => {
      await new Promise((r) => setImmediate(r));
      order.push('a');
      bg.track((async () => (await new Promise((r) => setImmediate(r)), order.push('b')))());
    })(),
  );
  await bg.idle();
  assert.deepEqual(order, ['a', 'b']);
});
