// Tests that rows made before numbered ids (prefix + 32 hex, then prefix _ 15 digits) keep working beside numbered ids: inputs, order, follow-ups.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { COMPACT_ID_RE, LEGACY_SORTABLE_ID_RE, NUMBERED_ID_RE } from '../shared/ids.js';
import { startTestServer, type TestServer } from '../domains/test-server.js';

let ts: TestServer;
const earlier = Date.now() - 60_000;
const legacyTask = `tsk_${earlier.toString(16).padStart(12, '0')}0000ffffffffffffffff`;
const legacyMsg = `msg_${earlier.toString(16).padStart(12, '0')}0000eeeeeeeeeeeeeeee`;
const compactTask = `tsk_${earlier + 1}00`;
const compactMsg = `msg_${earlier + 1}00`;

before(async () => {
  ts = await startTestServer();
  assert.match(legacyTask, LEGACY_SORTABLE_ID_RE);
  assert.match(compactTask, COMPACT_ID_RE);
  // As an older server wrote them: the same tables, the 32-hex id form.
  await ts.runSql('INSERT INTO tasks (id, title, description, status, assignee_id, created_by, blocked_reason, revision, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
    legacyTask, 'old task', '', 'open', null, ts.ownerId, null, 1, earlier, earlier,
  ]);
  await ts.runSql('INSERT INTO messages (id, target, author_id, content, reply_to, created_at) VALUES (?, ?, ?, ?, ?, ?)', [legacyMsg, 'channel:general', ts.ownerId, 'old message', null, earlier]);
  // As the server before numbered ids wrote them: prefix _ 15 digits.
  await ts.runSql('INSERT INTO tasks (id, title, description, status, assignee_id, created_by, blocked_reason, revision, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
    compactTask, 'compact task', '', 'open', null, ts.ownerId, null, 1, earlier + 1, earlier + 1,
  ]);
  await ts.runSql('INSERT INTO messages (id, target, author_id, content, reply_to, created_at) VALUES (?, ?, ?, ?, ?, ?)', [compactMsg, 'channel:general', ts.ownerId, 'compact message', null, earlier + 1]);
});
after(() => ts.stop());

test('older and numbered task ids list newest first side by side across pages, and the older ids still get and update', async () => {
  const fresh = [];
  for (const title of ['a', 'b', 'c']) fresh.push((await ts.owner.tasks.create({ title })).id);
  for (const id of fresh) assert.match(id, NUMBERED_ID_RE);
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const p = await ts.owner.tasks.list({ limit: 2, ...(cursor ? { cursor } : {}) });
    seen.push(...p.tasks.map((t) => t.id));
    cursor = p.nextCursor;
  } while (cursor);
  assert.deepEqual(seen, [...fresh].reverse().concat(compactTask, legacyTask));
  assert.equal((await ts.owner.tasks.get({ taskId: legacyTask })).title, 'old task');
  assert.equal((await ts.owner.tasks.update({ taskId: legacyTask, expectedRevision: 1, title: 'old, renamed' })).revision, 2);
  assert.equal((await ts.owner.tasks.update({ taskId: compactTask, expectedRevision: 1, title: 'compact, renamed' })).revision, 2);
});

test('an old message id still takes reactions, replies and a thread target', async () => {
  assert.deepEqual((await ts.owner.messages.react({ messageId: legacyMsg, emoji: '👍' })).reactions.map((r) => r.emoji), ['👍']);
  const reply = await ts.owner.messages.send({ target: 'channel:general', content: 'reply', replyTo: legacyMsg });
  assert.match(reply.id, NUMBERED_ID_RE);
  assert.deepEqual((await ts.owner.messages.react({ messageId: compactMsg, emoji: '👀' })).reactions.map((r) => r.emoji), ['👀']);
  const inThread = await ts.owner.messages.send({ target: `thread:general/${legacyMsg}`, content: 'threaded', replyTo: legacyMsg });
  assert.equal(inThread.target, `thread:general/${legacyMsg}`);
  const page = await ts.owner.messages.list({ target: 'channel:general', limit: 5 });
  assert.deepEqual(page.messages.map((m) => m.content).slice(0, 3), ['reply', 'compact message', 'old message']);
});
