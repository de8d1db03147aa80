// Tests envelopes, the 64 KiB result budget, mutation receipts and the strict re-projection of received metadata.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../shared/errors.js';
import { ServerCallError } from '../../server-client/client.js';
import { budgetSuccess, RESULT_BUDGET_BYTES } from './budget.js';
import { classify } from './envelope.js';
import { reprojectMetadata, retrievalCommand } from './receipt.js';
import { builtinCatalog } from '../../domains/registry.js';

const catalog = builtinCatalog();
const d = (domain: string, action: string) => catalog.find(domain, action)!;
const row = (domain: string, action: string) => catalog.inventory.get(`${domain}/${action}`);

/** data whose complete success envelope is exactly `bytes` long. */
function dataOfEnvelopeSize(bytes: number): { blob: string } {
  const overhead = JSON.stringify({ ok: true, data: { blob: '' } }).length;
  return { blob: 'a'.repeat(bytes - overhead) };
}

test('a success envelope of exactly 64 KiB is returned unchanged; one byte more is result_budget_exceeded', () => {
  const at = dataOfEnvelopeSize(RESULT_BUDGET_BYTES);
  const ok = budgetSuccess({ descriptor: d('task', 'list'), row: row('task', 'list'), catalog, result: { data: at }, idempotencyKey: undefined });
  assert.equal(ok.ok, true);
  if (ok.ok) {
    assert.equal(Buffer.byteLength(ok.body), RESULT_BUDGET_BYTES);
    assert.deepEqual(JSON.parse(ok.body), { ok: true, data: at });
  }
  const over = budgetSuccess({ descriptor: d('task', 'list'), row: row('task', 'list'), catalog, result: { data: dataOfEnvelopeSize(RESULT_BUDGET_BYTES + 1) }, idempotencyKey: undefined });
  assert.equal(over.ok, false);
});

test('multi-byte characters count as bytes, not characters', () => {
  const data = { blob: 'é'.repeat(40_000) }; // 40k chars, 80k bytes
  const r = budgetSuccess({ descriptor: d('task', 'get'), row: row('task', 'get'), catalog, result: { data }, idempotencyKey: undefined });
  assert.equal(r.ok, false);
});

test('an over-budget read returns result_budget_exceeded with the inventory hint and next, and no data', () => {
  const r = budgetSuccess({ descriptor: d('task', 'list'), row: row('task', 'list'), catalog, result: { data: dataOfEnvelopeSize(100_000) }, idempotencyKey: undefined });
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.envelope.error.code, 'result_budget_exceeded');
    assert.equal(r.envelope.error.hint, row('task', 'list')!.hint);
    assert.equal(r.envelope.error.next, row('task', 'list')!.next);
    assert.equal(r.envelope.error.metadata, undefined);
    assert.ok(JSON.stringify(r.envelope).length < 2000);
  }
});

test('an over-budget mutation reports mutation_applied with a closed receipt and a rebuilt retrieval command', () => {
  const r = budgetSuccess({
    descriptor: d('task', 'update'),
    row: row('task', 'update'),
    catalog,
    result: { data: dataOfEnvelopeSize(70_000), mutation: { selectors: JSON.parse('{"taskId":"tsk_1","ownerToken":"x"}') as { taskId: string }, revision: 4 } },
    idempotencyKey: 'k-1',
  });
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.envelope.error.code, 'result_budget_exceeded');
    assert.deepEqual(r.envelope.error.metadata, {
      mutation_applied: true,
      mutation_receipt: { selectors: { taskId: 'tsk_1' }, revision: 4, idempotencyKey: 'k-1', retrieval: `agentteam exec task get '{"taskId":"tsk_1"}'` },
    });
    assert.equal(r.envelope.error.next, undefined, 'no replay advice');
  }
});

test('a mutation whose result cannot be serialized fails closed without mutation_applied', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const r = budgetSuccess({ descriptor: d('task', 'create'), row: row('task', 'create'), catalog, result: { data: cyclic, mutation: { selectors: { taskId: 'tsk_1' } } }, idempotencyKey: 'k' });
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.envelope.error.code, 'result_budget_exceeded');
    assert.equal(r.envelope.error.metadata, undefined);
    assert.equal(r.envelope.error.hint, undefined);
    assert.ok(!/circular|cyclic/i.test(r.envelope.error.message), 'no private cause');
  }
  const read = budgetSuccess({ descriptor: d('task', 'get'), row: row('task', 'get'), catalog, result: { data: { n: 10n } }, idempotencyKey: undefined });
  assert.equal(read.ok, false);
  if (!read.ok) assert.equal(read.envelope.error.hint, row('task', 'get')!.hint);
});

test('receipt re-projection keeps only the closed contract and rebuilds retrieval from catalog inputs', () => {
  const wire = {
    mutation_applied: true,
    extra: 'dropped',
    mutation_receipt: {
      selectors: { taskId: 'tsk_9', path: '/home/u/.agentteam/run/credentials/x/token', reviewId: 'bad id with spaces' },
      revision: 7,
      idempotencyKey: 'key.1',
      retrieval: 'rm -rf / # not trusted',
      replay: 'agentteam exec task create …',
    },
  };
  assert.deepEqual(reprojectMetadata(catalog, wire), {
    mutation_applied: true,
    mutation_receipt: { selectors: { taskId: 'tsk_9' }, revision: 7, idempotencyKey: 'key.1', retrieval: `agentteam exec task get '{"taskId":"tsk_9"}'` },
  });
  const badFields = { mutation_applied: true, mutation_receipt: { selectors: {}, revision: -1, idempotencyKey: 'x'.repeat(500) } };
  assert.deepEqual(reprojectMetadata(catalog, badFields), { mutation_applied: true, mutation_receipt: { selectors: {} } });
  assert.equal(reprojectMetadata(catalog, { mutation_applied: 'yes', mutation_receipt: {} }), undefined);
  assert.equal(reprojectMetadata(catalog, [1, 2]), undefined);
  assert.equal(reprojectMetadata(catalog, { mutation_applied: true }), undefined);
  // No selector, or one that is not a valid get input, yields no retrieval path.
  assert.equal(retrievalCommand(catalog, {}), undefined);
  assert.equal(retrievalCommand(catalog, { reviewId: 'rev_1' }), `agentteam exec review get '{"reviewId":"rev_1"}'`);
  assert.equal(retrievalCommand(catalog, { taskId: 'no spaces allowed' }), undefined);
});

test('classify keeps public codes and hides everything else behind internal', () => {
  assert.deepEqual(classify(new AppError('conflict', 'stale revision', { hint: 'read it again' })), { ok: false, error: { code: 'conflict', message: 'stale revision', hint: 'read it again' } });
  const net = classify(new ServerCallError('upstream_unavailable', 'connect ECONNREFUSED', 'network'));
  assert.equal(net.error.code, 'upstream_unavailable');
  assert.ok(!net.error.message.includes('ECONNREFUSED'), 'network causes stay private');
  assert.equal(classify(new AppError('internal', 'db path /x/server.db')).error.message, 'internal error');
  const boom = classify(new Error('SQLITE_CORRUPT at /home/u/.agentteam/server.db token=atx_abc'));
  assert.deepEqual(boom, { ok: false, error: { code: 'internal', message: 'internal error' } });
  assert.equal(classify('string thrown').error.code, 'internal');
  const long = classify(new AppError('validation_failed', 'y'.repeat(5000)));
  assert.ok(long.error.message.length <= 1000);
});
