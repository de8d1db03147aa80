// Tests that the task, message and review page statements seek their index to the cursor boundary on SQLite (EXPLAIN QUERY PLAN).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { messagePageQuery } from '../domains/message/service.js';
import { reviewPageQuery } from '../domains/review/service.js';
import { taskPageQuery } from '../domains/task/service.js';
import { after, pageStatement, type Ordering } from './pagination.js';
import { openSqliteStore } from './store/sqlite.js';
import { SCHEMA } from '../domains/registry.js';

const b = [1_700_000_000_000, 'x_boundary'];

async function plans(queries: { sql: string; params: unknown[] }[]): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-plan-'));
  try {
    const path = join(dir, 'server.db');
    await openSqliteStore(path, { migrations: SCHEMA.sqlite }).close();
    const db = new Database(path, { readonly: true });
    try {
      return queries.map((q) => (db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params) as { detail: string }[]).map((r) => r.detail).join(' | '));
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('one direction is one row value; mixed directions expand to an OR of prefixes', () => {
  const desc: Ordering = { collection: 'x', keys: [{ column: 'm.created_at', field: 'created_at', dir: 'DESC', type: 'timestamp' }, { column: 'm.id', field: 'id', dir: 'DESC', type: 'text' }] };
  assert.deepEqual(after(desc, undefined), { sql: '', params: [] });
  assert.deepEqual(after(desc, b), { sql: ' AND (m.created_at, m.id) < (?, ?)', params: b });
  const mixed: Ordering = { collection: 'x', keys: [{ column: 'a', field: 'a', dir: 'DESC', type: 'integer' }, { column: 'b', field: 'b', dir: 'ASC', type: 'text' }] };
  assert.deepEqual(after(mixed, [5, 'k']), { sql: ' AND ((a < ?) OR (a = ? AND b > ?))', params: [5, 5, 'k'] });
});

test('deep pages SEARCH the list index with the (timestamp, id) bound instead of scanning from the top', async () => {
  const [tasks, byStatus, byAssignee, messages, reviews, reviewsByStatus] = await plans([
    pageStatement(taskPageQuery({ status: null, assigneeId: null }), b, 101),
    pageStatement(taskPageQuery({ status: 'open', assigneeId: null }), b, 101),
    pageStatement(taskPageQuery({ status: null, assigneeId: 'own_1' }), b, 101),
    pageStatement(messagePageQuery('channel:general'), b, 101),
    pageStatement(reviewPageQuery({ target: 'task:tsk_1', status: null }), b, 101),
    pageStatement(reviewPageQuery({ target: 'task:tsk_1', status: 'open' }), b, 101),
  ]);
  assert.match(tasks!, /^SEARCH tasks USING INDEX tasks_by_created \(\(created_at,id\)<\(\?,\?\)\)$/);
  assert.match(byStatus!, /^SEARCH tasks USING INDEX tasks_by_status \(status=\? AND \(created_at,id\)<\(\?,\?\)\)$/);
  assert.match(byAssignee!, /^SEARCH tasks USING INDEX tasks_by_assignee \(assignee_id=\? AND \(created_at,id\)<\(\?,\?\)\)$/);
  assert.match(messages!, /^SEARCH m USING INDEX messages_by_target \(target=\? AND \(created_at,id\)<\(\?,\?\)\)/);
  assert.match(reviews!, /^SEARCH reviews USING INDEX reviews_by_target \(target=\? AND \(updated_at,id\)<\(\?,\?\)\)$/);
  assert.match(reviewsByStatus!, /^SEARCH reviews USING INDEX reviews_by_target \(target=\? AND \(updated_at,id\)<\(\?,\?\)\)$/);
  for (const p of [tasks, byStatus, byAssignee, messages, reviews, reviewsByStatus]) assert.doesNotMatch(p!, /TEMP B-TREE/, 'no sort step');
});
