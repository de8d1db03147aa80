// Tests the CLI's strict projection of daemon answers: bounded strings, known codes, closed receipt metadata only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { projectAnswer } from './project.js';
import { builtinCatalog } from '../../domains/registry.js';

const catalog = builtinCatalog();

test('an over-budget mutation answer keeps only the re-projected receipt', () => {
  const wire = {
    ok: false,
    error: {
      code: 'result_budget_exceeded',
      message: 'the change was applied but its result exceeds 65536 bytes',
      hint: 'h'.repeat(5000),
      stack: 'at secret.ts:1',
      metadata: {
        mutation_applied: true,
        debug: { tokenFile: '/home/u/.agentteam/run/credentials/abc/token' },
        mutation_receipt: { selectors: { taskId: 'tsk_1', memberSecret: 's' }, revision: 2, idempotencyKey: 'k1', retrieval: 'curl evil' },
      },
    },
  };
  const p = projectAnswer(catalog, 'task', 'update', JSON.stringify(wire));
  assert.equal(p.ok, false);
  if (!p.ok) {
    assert.deepEqual(Object.keys(p.envelope.error).sort(), ['code', 'hint', 'message', 'metadata']);
    assert.ok(p.envelope.error.hint!.length <= 1000);
    assert.deepEqual(p.envelope.error.metadata, {
      mutation_applied: true,
      mutation_receipt: { selectors: { taskId: 'tsk_1' }, revision: 2, idempotencyKey: 'k1', retrieval: `agentteam exec task get '{"taskId":"tsk_1"}'` },
    });
  }
});

test('metadata on other codes, unknown codes and unreadable bodies are not trusted', () => {
  const other = projectAnswer(catalog, 'task', 'get', JSON.stringify({ ok: false, error: { code: 'conflict', message: 'm', metadata: { mutation_applied: true, mutation_receipt: { selectors: {} } } } }));
  assert.deepEqual(other, { ok: false, envelope: { ok: false, error: { code: 'conflict', message: 'm' } } });
  const unknown = projectAnswer(catalog, 'task', 'get', JSON.stringify({ ok: false, error: { code: 'teapot', message: 'm' } }));
  assert.equal(!unknown.ok && unknown.envelope.error.code, 'internal');
  const garbage = projectAnswer(catalog, 'task', 'get', '<html>');
  assert.equal(!garbage.ok && garbage.envelope.error.code, 'internal');
});

test('success passes unchanged within 64 KiB and becomes result_budget_exceeded above it', () => {
  const ok = projectAnswer(catalog, 'task', 'list', JSON.stringify({ ok: true, data: { tasks: [], hasMore: false } }));
  assert.deepEqual(ok, { ok: true, text: '{"ok":true,"data":{"tasks":[],"hasMore":false}}' });
  const big = projectAnswer(catalog, 'task', 'list', JSON.stringify({ ok: true, data: { blob: 'x'.repeat(70_000) } }));
  assert.equal(big.ok, false);
  if (!big.ok) {
    assert.equal(big.envelope.error.code, 'result_budget_exceeded');
    assert.equal(big.envelope.error.next, catalog.inventory.get('task/list')!.next);
  }
});
