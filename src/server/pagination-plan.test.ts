// Tests that the task, message and review list queries seek their index to the cursor boundary on SQLite (EXPLAIN QUERY PLAN).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { messageListQuery } from './domains/messages.js';
import { reviewListQuery } from './domains/reviews.js';
import { taskListQuery } from './domains/tasks.js';
import { afterDesc } from './pagination.js';
import { openSqliteStore } from './store/sqlite.js';

const b = { at: 1_700_000_000_000, id: 'x_boundary' };

async function plans(queries: { sql: string; params: (string | number)[] }[]): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-plan-'));
  try {
    const path = join(dir, 'server.db');
    await openSqliteStore(path).close();
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

test('the boundary is one row value with two parameters', () => {
  assert.deepEqual(afterDesc('created_at', undefined), { sql: '', params: [] });
  assert.deepEqual(afterDesc('m.created_at', b, 'm.id'), { sql: ' AND (m.created_at, m.id) < (?, ?)', params: [b.at, b.id] });
});

test('deep pages SEARCH the list index with the (timestamp, id) bound instead of scanning from the top', async () => {
  const [tasks, byStatus, byAssignee, messages, reviews, reviewsByStatus] = await plans([
    taskListQuery({ status: null, assigneeId: null }, b, 101),
    taskListQuery({ status: 'open', assigneeId: null }, b, 101),
    taskListQuery({ status: null, assigneeId: 'own_1' }, b, 101),
    messageListQuery('channel:general', b, 101),
    reviewListQuery({ target: 'task:tsk_1', status: null }, b, 101),
    reviewListQuery({ target: 'task:tsk_1', status: 'open' }, b, 101),
  ]);
  assert.match(tasks!, /^SEARCH tasks USING INDEX tasks_by_created \(\(created_at,id\)<\(\?,\?\)\)$/);
  assert.match(byStatus!, /^SEARCH tasks USING INDEX tasks_by_status \(status=\? AND \(created_at,id\)<\(\?,\?\)\)$/);
  assert.match(byAssignee!, /^SEARCH tasks USING INDEX tasks_by_assignee \(assignee_id=\? AND \(created_at,id\)<\(\?,\?\)\)$/);
  assert.match(messages!, /^SEARCH m USING INDEX messages_by_target \(target=\? AND \(created_at,id\)<\(\?,\?\)\)/);
  assert.match(reviews!, /^SEARCH reviews USING INDEX reviews_by_target \(target=\? AND \(updated_at,id\)<\(\?,\?\)\)$/);
  assert.match(reviewsByStatus!, /^SEARCH reviews USING INDEX reviews_by_target \(target=\? AND \(updated_at,id\)<\(\?,\?\)\)$/);
  for (const p of [tasks, byStatus, byAssignee, messages, reviews, reviewsByStatus]) assert.doesNotMatch(p!, /TEMP B-TREE/, 'no sort step');
});
