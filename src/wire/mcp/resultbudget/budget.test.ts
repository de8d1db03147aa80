// Tests the final result boundary: results at or under 64 KiB pass unchanged; larger or unserializable ones become a typed error.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { budgetExceeded, RESULT_BUDGET_BYTES, resultBytes, serializeWithinBudget, structuredFits, toolError, toolResult } from './budget.js';

test('a result within the budget is returned byte-for-byte', () => {
  const r = toolResult({ a: 'é'.repeat(1000) });
  assert.equal(serializeWithinBudget(r), JSON.stringify(r));
});

test('a result over the budget becomes result_budget_exceeded with a hint', () => {
  const out = JSON.parse(serializeWithinBudget(toolResult({ a: 'x'.repeat(RESULT_BUDGET_BYTES) })));
  assert.equal(out.isError, true);
  assert.equal(out.structuredContent.code, 'result_budget_exceeded');
  assert.equal(typeof out.structuredContent.hint, 'string');
});

test('an unserializable result becomes the same error, without the cause', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const out = JSON.parse(serializeWithinBudget({ content: [{ type: 'text', text: 'x' }], structuredContent: cyclic }));
  assert.equal(out.structuredContent.code, 'result_budget_exceeded');
  assert.equal(resultBytes({ content: [], structuredContent: cyclic }), Infinity);
});

test('property: the boundary output is always valid JSON of at most 64 KiB, and equal to the input when it fits', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 40_000 }), fc.integer({ min: 0, max: 3 }), (s, rep) => {
      const r = toolResult({ s: s.repeat(rep) });
      const out = serializeWithinBudget(r);
      assert.ok(Buffer.byteLength(out) <= RESULT_BUDGET_BYTES);
      JSON.parse(out);
      assert.equal(out === JSON.stringify(r), resultBytes(r) <= RESULT_BUDGET_BYTES);
      assert.equal(structuredFits({ s: s.repeat(rep) }), resultBytes(r) <= RESULT_BUDGET_BYTES);
    }),
    { numRuns: 300 },
  );
});

test('tool errors mirror their structured body', () => {
  const e = toolError('denied', 'no', 'ask');
  assert.equal(e.content[0]!.text, JSON.stringify(e.structuredContent));
  assert.deepEqual(e.structuredContent, { code: 'denied', message: 'no', hint: 'ask' });
});

test('the serialization built with a result is exactly JSON.stringify of it, for success and error results', () => {
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), fc.option(fc.string(), { nil: undefined }), (structured, message, hint) => {
      for (const r of [toolResult(structured as Record<string, unknown>), toolError('invalid_input', message, hint)]) {
        const plain = JSON.stringify({ ...r });
        assert.equal(serializeWithinBudget(r), Buffer.byteLength(plain) <= RESULT_BUDGET_BYTES ? plain : JSON.stringify(budgetExceeded()));
        assert.equal(resultBytes(r), Buffer.byteLength(plain));
      }
    }),
    { numRuns: 500 },
  );
});
