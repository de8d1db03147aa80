// Tests the task domain's per-member bound on the real server (SQLite, or PostgreSQL via the suites runner): a member has
// at most OPEN_TASKS_PER_MEMBER_MAX open tasks they created; past it a create is a conflict that stores nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerApi } from '../../server-client/api.js';
import { startTestServer, type TestServer } from '../test-server.js';
import { OPEN_TASKS_PER_MEMBER_MAX } from './contract.js';

let t: TestServer;
let filer: ServerApi;
let filerId: string;
before(async () => {
  t = await startTestServer();
  const a = await t.owner.members.createAgent({ name: 'filer' });
  filer = t.client.as(a.credential);
  filerId = a.agent.id;
});
after(async () => t.stop());

const count = async () => Number((await t.querySql<{ n: number }>('SELECT COUNT(*) AS n FROM tasks'))[0]?.n);
const full = (e: { code?: string; message?: string }) => e.code === 'conflict' && new RegExp(`at most ${OPEN_TASKS_PER_MEMBER_MAX} open tasks`).test(e.message ?? '');

test(`a member has at most ${OPEN_TASKS_PER_MEMBER_MAX} open tasks they created; done and canceled ones do not count; others are not limited (failed before: tasks were unbounded)`, async () => {
  // Open, in progress and blocked tasks count; filled in one statement (a recursive series, the same SQL on both engines).
  const statuses = "CASE WHEN i % 3 = 0 THEN 'open' WHEN i % 3 = 1 THEN 'in_progress' ELSE 'blocked' END";
  await t.runSql(`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?) INSERT INTO tasks (id, title, description, status, created_by, revision, created_at, updated_at) SELECT 'tsk_fill' || i, 'fill', '', ${statuses}, ?, 1, 1, 1 FROM s`, [OPEN_TASKS_PER_MEMBER_MAX - 1, filerId]);
  await t.runSql("INSERT INTO tasks (id, title, description, status, created_by, revision, created_at, updated_at) VALUES ('tsk_done', 'd', '', 'done', ?, 1, 1, 1), ('tsk_gone', 'c', '', 'canceled', ?, 1, 1, 1)", [filerId, filerId]);
  const last = await filer.tasks.create({ title: 'the last one that fits' });
  const n = await count();
  await assert.rejects(filer.tasks.create({ title: 'one more' }), full);
  await assert.rejects(filer.tasks.create({ title: 'one more, assigned', assigneeId: filerId }), full, 'the transaction path too');
  assert.equal(await count(), n, 'nothing stored');
  await t.owner.tasks.create({ title: 'the owner is not limited by the filer' });
  await filer.tasks.transition({ taskId: last.id, transition: 'cancel' });
  await filer.tasks.create({ title: 'fits again after a cancel', assigneeId: filerId });
  await assert.rejects(filer.tasks.create({ title: 'full again' }), full);
});
