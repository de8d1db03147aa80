// Tests per-operation policy: the catalog fails closed on disagreeing operations; the result budget, the receipt and the
// idempotency rule treat each workflow operation as the spec's closed matrix says (reads vs side effects).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeDescriptorCatalog } from './catalog.js';
import { forRequest, operationOf, rowForRequest } from './operations.js';
import type { InventoryRow } from './types.js';
import rows from './action-inventory.json' with { type: 'json' };
import { budgetSuccess } from '../wire/exec/budget.js';
import { MATRIX } from '../domains/workflow/contract.js';
import { builtinCatalog } from '../domains/registry.js';

const catalog = builtinCatalog();
const inventory = rows as unknown as InventoryRow[];
const big = { blob: 'a'.repeat(70_000) };

test('every workflow operation has exactly the matrix policy: list/show/… are reads, create/start/complete/… side effects', () => {
  for (const [action, ops] of Object.entries(MATRIX)) {
    const d = catalog.find('workflow', action)!;
    assert.deepEqual([d.risk, d.resultPolicy], ['write', 'mutation'], 'the action declares its strongest operation');
    assert.deepEqual(Object.keys(d.operations!), Object.keys(ops));
    for (const [op, policy] of Object.entries(ops)) {
      const e = forRequest(d, { operation: op });
      assert.deepEqual([e.risk, e.resultPolicy], [policy === 'mutation' ? 'write' : 'read', policy], `${action} ${op}`);
    }
  }
  const reads = Object.entries(MATRIX).flatMap(([a, ops]) => Object.entries(ops).filter(([, p]) => p !== 'mutation').map(([o]) => `${a}:${o}`));
  assert.deepEqual(reads, ['plan:list', 'plan:show', 'plan:version', 'plan:validate', 'trigger:list', 'trigger:show', 'trigger:validate', 'run:list', 'run:show', 'run:logs', 'step:list', 'step:get']);
  assert.equal(operationOf(catalog.find('workflow', 'run')!, { operation: 'toString' }), undefined, 'only own operations count');
  assert.equal(forRequest(catalog.find('task', 'get')!, { operation: 'list' }).risk, 'read', 'actions without operations are unchanged');
});

test('an over-budget read operation is result_budget_exceeded with its own continuation and no mutation metadata', () => {
  const d = catalog.find('workflow', 'run')!;
  const row = catalog.inventory.get('workflow/run');
  const r = budgetSuccess({ descriptor: d, row, catalog, result: { data: big }, idempotencyKey: undefined, input: { operation: 'logs', runId: 'wfr_1', limit: 40 } });
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.envelope.error.code, 'result_budget_exceeded');
  assert.equal(r.envelope.error.metadata, undefined);
  assert.match(r.envelope.error.hint!, /limit 20 \(was 40\)/);
  assert.equal(r.envelope.error.next, `agentteam exec workflow run '{"operation":"logs","runId":"wfr_1","limit":20}'`);
  const show = budgetSuccess({ descriptor: d, row, catalog, result: { data: big }, idempotencyKey: undefined, input: { operation: 'show', runId: 'wfr_1' } });
  assert.ok(!show.ok && show.envelope.error.metadata === undefined && show.envelope.error.hint === rowForRequest(d, row, { operation: 'show' })!.hint);
});

test('an over-budget side-effect operation reports mutation_applied with a closed receipt that reads it back by operation', () => {
  const d = catalog.find('workflow', 'step')!;
  const r = budgetSuccess({ descriptor: d, row: catalog.inventory.get('workflow/step'), catalog, result: { data: big, mutation: { selectors: { stepId: 'wfs_1' }, revision: 3 } }, idempotencyKey: 'k-1', input: { operation: 'complete', stepId: 'wfs_1' } });
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.deepEqual(r.envelope.error.metadata, { mutation_applied: true, mutation_receipt: { selectors: { stepId: 'wfs_1' }, revision: 3, idempotencyKey: 'k-1', retrieval: `agentteam exec workflow step '{"operation":"get","stepId":"wfs_1"}'` } });
  assert.equal(r.envelope.error.next, undefined, 'no replay advice');
});

test('the catalog fails closed when operations disagree with the inventory, the input union or the top-level policy', () => {
  const ds = builtinCatalog().actions;
  const withRow = (f: (r: InventoryRow) => InventoryRow) => inventory.map((r) => (r.domain === 'workflow' && r.action === 'run' ? f(r) : r));
  const flip = withRow((r) => ({ ...r, operations: { ...r.operations!, show: { ...r.operations!.show!, risk: 'write', resultPolicy: 'mutation' } } }));
  assert.throws(() => makeDescriptorCatalog(ds, flip), /workflow\/run operation show disagrees/);
  const { cancel: _c, ...fewer } = inventory.find((r) => r.action === 'run')!.operations!;
  assert.throws(() => makeDescriptorCatalog(ds, withRow((r) => ({ ...r, operations: fewer }))), /inventory operations differ/);
  const { operations: _o, ...plain } = inventory.find((r) => r.action === 'run')!;
  assert.throws(() => makeDescriptorCatalog(ds, withRow(() => plain)), /operations on one side only/);
  const run = ds.find((x) => x.domain === 'workflow' && x.action === 'run')!;
  const readTop = ds.map((x) => (x === run ? { ...run, risk: 'read' as const, resultPolicy: 'cursor' as const } : x));
  assert.throws(() => makeDescriptorCatalog(readTop, withRow((r) => ({ ...r, risk: 'read', resultPolicy: 'cursor' }))), /strongest operation/);
  const extra = ds.map((x) => (x === run ? { ...run, operations: { ...run.operations!, purge: { risk: 'write' as const, resultPolicy: 'mutation' as const } } } : x));
  assert.throws(() => makeDescriptorCatalog(extra, inventory), /differ from its input's operation union/);
  assert.doesNotThrow(() => makeDescriptorCatalog(ds, inventory));
});
