// Tests that rows made before compact ids (prefix + 32 hex) keep working beside compact ids: inputs, order, follow-ups.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { COMPACT_ID_RE, LEGACY_SORTABLE_ID_RE } from '../shared/ids.js';
import { startTestServer, type TestServer } from './test-helpers.js';

let ts: TestServer;
const earlier = Date.now() - 60_000;
const legacyTask = `tsk_${earlier.toString(16).padStart(12, '0')}0000ffffffffffffffff`;
const legacyMsg = `msg_${earlier.toString(16).padStart(12, '0')}0000eeeeeeeeeeeeeeee`;

before(async () => {
  ts = await startTestServer();
  assert.match(legacyTask, LEGACY_SORTABLE_ID_RE);
  // As an older server wrote them: the same tables, the 32-hex id form.
  await ts.runSql('INSERT INTO tasks (id, title, description, status, assignee_id, created_by, blocked_reason, revision, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
    legacyTask, 'old task', '', 'open', null, ts.ownerId, null, 1, earlier, earlier,
  ]);
  await ts.runSql('INSERT INTO messages (id, target, author_id, content, reply_to, created_at) VALUES (?, ?, ?, ?, ?, ?)', [legacyMsg, 'channel:general', ts.ownerId, 'old message', null, earlier]);
});
after(() => ts.stop());

test('old and compact task ids list newest first side by side across pages, and the old id still gets and updates', async () => {
  const fresh = [];
  for (const title of ['a', 'b', 'c']) fresh.push((await ts.owner.tasks.create({ title })).id);
  for (const id of fresh) assert.match(id, COMPACT_ID_RE);
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const p = await ts.owner.tasks.list({ limit: 2, ...(cursor ? { cursor } : {}) });
    seen.push(...p.tasks.map((t) => t.id));
    cursor = p.nextCursor;
  } while (cursor);
  assert.deepEqual(seen, [...fresh].reverse().concat(legacyTask));
  assert.equal((await ts.owner.tasks.get(legacyTask)).title, 'old task');
  assert.equal((await ts.owner.tasks.update({ taskId: legacyTask, expectedRevision: 1, title: 'old, renamed' })).revision, 2);
});

test('an old message id still takes reactions, replies and a thread target', async () => {
  assert.deepEqual((await ts.owner.messages.react({ messageId: legacyMsg, emoji: '👍' })).reactions.map((r) => r.emoji), ['👍']);
  const reply = await ts.owner.messages.send({ target: 'channel:general', content: 'reply', replyTo: legacyMsg });
  assert.match(reply.id, COMPACT_ID_RE);
  const inThread = await ts.owner.messages.send({ target: `thread:general/${legacyMsg}`, content: 'threaded', replyTo: legacyMsg });
  assert.equal(inThread.target, `thread:general/${legacyMsg}`);
  const page = await ts.owner.messages.list({ target: 'channel:general', limit: 5 });
  assert.deepEqual(page.messages.map((m) => m.content).slice(0, 2), ['reply', 'old message']);
});
