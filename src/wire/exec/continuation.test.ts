// Tests continuation advice computed from the failed request (daemon budget and the CLI's own fallback), and the CLI's mutation fallback.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { projectAnswer } from '../../cli/exec/project.js';
import { budgetSuccess, RESULT_BUDGET_BYTES } from './budget.js';
import { builtinCatalog } from '../../domains/registry.js';

const catalog = builtinCatalog();
const big = { tasks: [], blob: 'x'.repeat(RESULT_BUDGET_BYTES) };

test('an over-budget page suggests a smaller limit with the same filters and cursor; never a larger one (failed before: limit 4 → limit 5)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 100 }), fc.option(fc.constantFrom('open', 'done'), { nil: undefined }), (limit, status) => {
      const input = { limit, cursor: 'c.abc', ...(status ? { filters: { status } } : {}) };
      const r = budgetSuccess({ descriptor: catalog.find('task', 'list')!, row: catalog.inventory.get('task/list'), catalog, result: { data: big }, idempotencyKey: undefined, input });
      assert.equal(r.ok, false);
      if (r.ok) return;
      const next = r.envelope.error.next!;
      const json = JSON.parse(/'(.*)'$/.exec(next)![1]!);
      assert.ok(json.limit < limit, `${next} after limit ${limit}`);
      assert.equal(json.cursor, 'c.abc');
      assert.deepEqual(json.filters, input.filters);
    }),
  );
  const one = budgetSuccess({ descriptor: catalog.find('task', 'list')!, row: catalog.inventory.get('task/list'), catalog, result: { data: big }, idempotencyKey: undefined, input: { limit: 1 } });
  assert.ok(!one.ok && one.envelope.error.next === undefined && /task get/.test(one.envelope.error.hint!));
  const dflt = budgetSuccess({ descriptor: catalog.find('review', 'list')!, row: catalog.inventory.get('review/list'), catalog, result: { data: big }, idempotencyKey: 'k', input: { filters: { target: 'task:t1' }, idempotencyKey: 'k' } });
  assert.ok(!dflt.ok && /"limit":10/.test(dflt.envelope.error.next!) && !/idempotencyKey/.test(dflt.envelope.error.next!));
});

test('the CLI fallback: an over-budget read is advised from its own request; an over-budget mutation keeps mutation semantics', () => {
  const body = JSON.stringify({ ok: true, data: { task: { id: 'tsk_1', blob: 'y'.repeat(RESULT_BUDGET_BYTES) } } });
  const read = projectAnswer(catalog, 'task', 'list', body, { limit: 4 });
  assert.ok(!read.ok && /"limit":2/.test(read.envelope.error.next!));
  const write = projectAnswer(catalog, 'task', 'create', body, { title: 't', idempotencyKey: 'k-1' });
  assert.ok(!write.ok);
  if (write.ok) return;
  assert.equal(write.envelope.error.code, 'result_budget_exceeded');
  assert.equal(write.envelope.error.next, undefined, 'no replay or read advice as next');
  assert.equal(write.envelope.error.metadata?.mutation_applied, true);
  assert.deepEqual(write.envelope.error.metadata?.mutation_receipt, { selectors: { taskId: 'tsk_1' }, idempotencyKey: 'k-1', retrieval: `agentteam exec task get '{"taskId":"tsk_1"}'` });
});
