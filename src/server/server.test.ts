// Tests the AgentTeam Server end to end through ServerClient: bootstrap, membership authorization, messages, threads, DMs, tasks, reviews.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerApi } from '../server-client/api.js';
import type { TaskTransition } from '../domains/task/contract.js';
import { ServerCallError } from '../server-client/client.js';
import { startTestServer, TEST_ADMIN_TOKEN, type TestServer, readBytes, uploadBytes } from '../domains/test-server.js';

let t: TestServer;
let agent: ServerApi;
let agentId: string;
let other: ServerApi;

before(async () => {
  t = await startTestServer();
  const a = await t.owner.members.createAgent({ name: 'builder' });
  agent = t.client.as(a.credential);
  agentId = a.agent.id;
  const b = await t.owner.members.createAgent({ name: 'outsider' });
  other = t.client.as(b.credential);
});
after(async () => t.stop());

async function fails(p: Promise<unknown>, code: string, kind: string = 'client'): Promise<ServerCallError> {
  let caught: unknown;
  await assert.rejects(p, (e) => ((caught = e), true));
  assert.ok(caught instanceof ServerCallError, `expected ServerCallError, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  assert.equal(caught.kind, kind);
  return caught;
}

test('bootstrap is idempotent and returns the owner credential only once', async () => {
  const again = await t.client.bootstrap(TEST_ADMIN_TOKEN, { ownerName: 'Someone else' });
  assert.equal(again.created, false);
  assert.equal(again.ownerCredential, undefined);
  assert.equal(again.owner.id, t.ownerId);
  assert.equal(again.owner.name, 'Owner');
  const info = await t.client.info();
  assert.equal(info.serverId, t.server.serverId);
  assert.equal(info.workspaceId, again.workspaceId);
  assert.match(info.serverId, /^srv_/);
  const channels = await t.owner.channels.list();
  assert.deepEqual(channels.map((c) => c.id), ['general']);
  await fails(t.client.bootstrap('wrong-admin-token-000000'), 'denied');
  await fails(t.client.bootstrap(t.ownerCredential), 'denied');
});

test('a bad credential is denied with a generic message that never echoes it', async () => {
  const e = await fails(t.client.as('ats_' + 'x'.repeat(43)).members.me(), 'denied');
  assert.equal(e.message, 'forbidden');
  assert.equal(e.httpStatus, 403);
});

test('owner-only calls deny agents', async () => {
  await fails(agent.members.createAgent({ name: 'x' }), 'denied');
  await fails(agent.channels.create({ id: 'secret' }), 'denied');
  await fails(agent.channels.addMember({ channelId: 'general', memberId: agentId }), 'denied');
  assert.equal((await agent.members.me()).kind, 'agent');
});

test('removal and rename: an admin removes members and renames agents; a Human who is no longer an admin still does both for the agents they created, nobody else', async () => {
  const pat = await t.client.join((await t.owner.members.invite({ name: 'Pat', role: 'admin' })).code);
  const patApi = t.client.as(pat.credential);
  const mine = await patApi.members.createAgent({ name: 'pats-bot' });
  const spare = await patApi.members.createAgent({ name: 'pats-spare' });
  await t.runSql('UPDATE members SET admin = 0 WHERE id = ?', [pat.member.id]);
  await fails(patApi.members.remove({ memberId: agentId }), 'denied');
  await fails(patApi.members.remove({ memberId: t.ownerId }), 'denied');
  await fails(patApi.members.remove({ memberId: pat.member.id }), 'denied');
  await fails(agent.members.remove({ memberId: spare.agent.id }), 'denied');
  assert.equal((await patApi.members.renameAgent({ memberId: mine.agent.id, name: 'pats-bot-2' })).name, 'pats-bot-2');
  await fails(patApi.members.renameAgent({ memberId: agentId, name: 'taken-over' }), 'denied');
  await fails(agent.members.renameAgent({ memberId: spare.agent.id, name: 'x' }), 'denied');
  await fails(t.owner.members.renameAgent({ memberId: spare.agent.id, name: 'pats-bot-2' }), 'conflict');
  await fails(t.owner.members.renameAgent({ memberId: t.ownerId, name: 'bot' }), 'not_found');
  assert.equal((await t.owner.members.renameAgent({ memberId: spare.agent.id, name: 'pats-spare-2' })).name, 'pats-spare-2');
  assert.deepEqual((await patApi.members.remove({ memberId: mine.agent.id })).removed, [mine.agent.id]);
  await fails(t.client.as(mine.credential).members.me(), 'denied');
  await fails(patApi.members.remove({ memberId: mine.agent.id }), 'not_found');
  assert.equal((await t.client.as(spare.credential).members.me()).id, spare.agent.id);
});

test('an agent reads and posts only in channels it is a member of; the owner reads all', async () => {
  await t.owner.channels.create({ id: 'ops', name: 'Operations' });
  await fails(t.owner.channels.create({ id: 'ops' }), 'conflict');
  await fails(t.owner.channels.create({ id: 'Bad_Slug' }), 'validation_failed');
  await t.owner.messages.send({ target: 'channel:ops', content: 'owner only so far' });
  // Not a member: the same not_found as a channel that does not exist, so existence cannot be probed.
  const e1 = await fails(agent.messages.list({ target: 'channel:ops' }), 'not_found');
  const e2 = await fails(agent.messages.list({ target: 'channel:does-not-exist' }), 'not_found');
  assert.equal(e1.message.replace('ops', 'X'), e2.message.replace('does-not-exist', 'X'));
  await fails(agent.messages.send({ target: 'channel:ops', content: 'let me in' }), 'not_found');
  assert.deepEqual((await agent.channels.list()).map((c) => c.id), []);
  await t.owner.channels.addMember({ channelId: 'ops', memberId: agentId });
  await t.owner.channels.addMember({ channelId: 'ops', memberId: agentId }); // idempotent
  assert.deepEqual((await agent.channels.list()).map((c) => c.id), ['ops']);
  const m = await agent.messages.send({ target: 'channel:ops', content: 'hello ops' });
  assert.equal(m.author.id, agentId);
  const page = await t.owner.messages.list({ target: 'channel:ops' });
  assert.deepEqual(page.messages.map((x) => x.content), ['hello ops', 'owner only so far']);
  assert.equal(page.hasMore, false);
  assert.equal('nextCursor' in page, false);
  await fails(other.messages.list({ target: 'channel:ops' }), 'not_found');
  await fails(agent.messages.list({ target: 'Channel:ops' }), 'validation_failed');
  await fails(agent.messages.list({ target: 'channel: ops' }), 'validation_failed');
});

test('reactions are per member and removable; reacting needs read access', async () => {
  const m = await t.owner.messages.send({ target: 'channel:general', content: 'react to me' });
  await t.owner.channels.addMember({ channelId: 'general', memberId: agentId });
  await agent.messages.react({ messageId: m.id, emoji: '👍' });
  await agent.messages.react({ messageId: m.id, emoji: '👍' }); // adding twice is one reaction
  let r = await t.owner.messages.react({ messageId: m.id, emoji: '👍' });
  assert.deepEqual(r.reactions, [{ emoji: '👍', count: 2, memberIds: [agentId, t.ownerId] }]);
  r = await agent.messages.react({ messageId: m.id, emoji: '👍', remove: true });
  assert.deepEqual(r.reactions, [{ emoji: '👍', count: 1, memberIds: [t.ownerId] }]);
  await fails(other.messages.react({ messageId: m.id, emoji: '👎' }), 'not_found');
  await fails(agent.messages.react({ messageId: m.id, emoji: 'two words' }), 'validation_failed');
});

test('attachments round-trip as bytes; over 10 MiB or more than 4 are refused without a message', async () => {
  const bytes = Buffer.from([0, 1, 2, 250, 255, 10, 13]);
  const ids = [await uploadBytes(agent, 'bin.dat', 'application/octet-stream', bytes), await uploadBytes(agent, 'b.txt', 'text/plain', Buffer.from('b'))];
  const m = await agent.messages.send({ target: 'channel:general', content: 'with files', attachmentIds: ids });
  assert.deepEqual(m.attachments.map((a) => [a.id, a.name, a.size]), [[ids[0], 'bin.dat', 7], [ids[1], 'b.txt', 1]]);
  assert.deepEqual(await readBytes(t.owner, m.attachments[0]!.id), bytes);
  const got = await t.owner.messages.getAttachment({ attachmentId: m.attachments[0]!.id });
  assert.deepEqual(got, { id: ids[0], name: 'bin.dat', contentType: 'application/octet-stream', size: 7 });
  await fails(other.messages.getAttachment({ attachmentId: m.attachments[0]!.id }), 'not_found');
  await fails(readBytes(other, m.attachments[0]!.id), 'not_found');
  const before = (await t.owner.messages.list({ target: 'channel:general', limit: 100 })).messages.length;
  await fails(uploadBytes(agent, 'big', 'application/octet-stream', Buffer.alloc(10 * 1024 * 1024 + 1, 7)), 'payload_too_large');
  const five = [];
  for (let i = 0; i < 5; i++) five.push(await uploadBytes(agent, `f${i}`, 'text/plain', Buffer.from('x')));
  await fails(agent.messages.send({ target: 'channel:general', content: 'too many', attachmentIds: five }), 'validation_failed');
  // An upload is claimable once, only by its uploader.
  await fails(agent.messages.send({ target: 'channel:general', content: 'reused', attachmentIds: [ids[0]!] }), 'validation_failed');
  await fails(t.owner.messages.send({ target: 'channel:general', content: 'not mine', attachmentIds: [five[0]!] }), 'validation_failed');
  const exact = Buffer.alloc(10 * 1024 * 1024, 1);
  const capId = await uploadBytes(agent, 'cap', 'application/octet-stream', exact);
  const ok = await agent.messages.send({ target: 'channel:general', content: 'at the cap', attachmentIds: [capId] });
  assert.equal(ok.attachments[0]!.size, 10 * 1024 * 1024);
  assert.ok((await readBytes(agent, capId)).equals(exact));
  const after = (await t.owner.messages.list({ target: 'channel:general', limit: 100 })).messages;
  assert.equal(after.length, before + 1);
  assert.equal(after[0]!.content, 'at the cap');
});

test('thread targets hang off a channel message and share its membership; DMs have a fixed member set', async () => {
  await t.owner.channels.create({ id: 'design' });
  const root = await t.owner.messages.send({ target: 'channel:design', content: 'root' });
  const thread = `thread:design/${root.id}`;
  const reply = await t.owner.messages.send({ target: thread, content: 'in thread', replyTo: root.id });
  assert.equal(reply.target, thread);
  assert.equal(reply.replyTo, root.id);
  await fails(agent.messages.list({ target: thread }), 'not_found');
  await t.owner.channels.addMember({ channelId: 'design', memberId: agentId });
  const page = await agent.messages.list({ target: thread });
  assert.deepEqual(page.messages.map((m) => m.content), ['in thread']);
  // A thread whose root is not a top-level message of that channel does not exist.
  await fails(agent.messages.list({ target: `thread:general/${root.id}` }), 'not_found');
  await fails(agent.messages.list({ target: `thread:design/${reply.id}` }), 'not_found');
  // Channel listing does not include thread messages.
  assert.deepEqual((await agent.messages.list({ target: 'channel:design' })).messages.map((m) => m.content), ['root']);

  const dm = await agent.channels.openDm({ memberIds: [t.ownerId] });
  assert.deepEqual(dm.memberIds, [agentId, t.ownerId].sort());
  const same = await t.owner.channels.openDm({ memberIds: [agentId] });
  assert.equal(same.id, dm.id);
  await agent.messages.send({ target: `dm:${dm.id}`, content: 'psst' });
  assert.equal((await t.owner.messages.list({ target: `dm:${dm.id}` })).messages[0]!.content, 'psst');
  await fails(other.messages.list({ target: `dm:${dm.id}` }), 'not_found');
  await fails(other.messages.send({ target: `dm:${dm.id}`, content: 'hi' }), 'not_found');
  await fails(agent.channels.openDm({ memberIds: [agentId] }), 'validation_failed');
  await fails(agent.channels.openDm({ memberIds: ['mem_nobody'] }), 'not_found');
});

test('task lifecycle: every transition is validated, revisions bump, stale revisions conflict', async () => {
  const task = await agent.tasks.create({ title: 'Ship it', description: 'all of it', assigneeId: agentId });
  assert.equal(task.status, 'open');
  assert.equal(task.revision, 1);
  assert.equal(task.assigneeId, agentId);
  const all: TaskTransition[] = ['start', 'block', 'complete', 'reopen', 'cancel'];
  const legal: Record<string, TaskTransition[]> = {
    open: ['start', 'block', 'cancel'],
    in_progress: ['block', 'complete', 'cancel'],
    blocked: ['start', 'cancel'],
    done: ['reopen'],
    canceled: ['reopen'],
  };
  // Walk the task into each status and try every illegal transition from there.
  const path: Array<[TaskTransition, string]> = [['start', 'in_progress'], ['block', 'blocked'], ['start', 'in_progress'], ['complete', 'done'], ['reopen', 'open'], ['cancel', 'canceled'], ['reopen', 'open']];
  let cur = task;
  for (const [tr, to] of [['none', 'open'] as const, ...path]) {
    if (tr !== 'none') {
      const prevRev = cur.revision;
      cur = await agent.tasks.transition({ taskId: task.id, transition: tr, ...(tr === 'block' ? { reason: 'waiting on review' } : {}) });
      assert.equal(cur.status, to);
      assert.equal(cur.revision, prevRev + 1);
      assert.ok(cur.updatedAt >= cur.createdAt);
      assert.equal(cur.blockedReason, to === 'blocked' ? 'waiting on review' : null);
    }
    for (const bad of all.filter((x) => !legal[cur.status]!.includes(x))) {
      const e = await fails(agent.tasks.transition({ taskId: task.id, transition: bad, reason: 'r' }), 'conflict');
      assert.ok(e.message.includes(cur.status), e.message);
      for (const ok of legal[cur.status]!) assert.ok(e.message.includes(ok), e.message);
    }
  }
  await fails(agent.tasks.transition({ taskId: task.id, transition: 'block' }), 'validation_failed'); // reason required
  const fresh = await agent.tasks.get({ taskId: task.id });
  assert.equal(fresh.revision, cur.revision);
  const upd = await agent.tasks.update({ taskId: task.id, expectedRevision: fresh.revision, title: 'Ship it now' });
  assert.equal(upd.title, 'Ship it now');
  assert.equal(upd.revision, fresh.revision + 1);
  await fails(agent.tasks.update({ taskId: task.id, expectedRevision: fresh.revision, title: 'stale' }), 'conflict');
  assert.equal((await agent.tasks.get({ taskId: task.id })).title, 'Ship it now');
  const assigned = await t.owner.tasks.assign({ taskId: task.id, assigneeId: null });
  assert.equal(assigned.assigneeId, null);
  await fails(t.owner.tasks.assign({ taskId: task.id, assigneeId: 'mem_nobody' }), 'validation_failed');
  const c = await other.tasks.comment({ taskId: task.id, body: 'any member may discuss a task' });
  assert.equal(c.taskId, task.id);
  const disc = await other.messages.list({ target: `task:${task.id}` });
  assert.deepEqual(disc.messages.map((m) => m.id), [c.id]);
  assert.equal((await agent.tasks.get({ taskId: task.id })).revision, assigned.revision + 1);
  await fails(agent.tasks.get({ taskId: 'tsk_missing' }), 'not_found');
  const filtered = await agent.tasks.list({ status: 'open', assigneeId: agentId });
  assert.ok(filtered.tasks.every((x) => x.status === 'open' && x.assigneeId === agentId));
});

test('reviews on task and thread targets: add, get, list, resolve, reopen with validated transitions', async () => {
  const task = await agent.tasks.create({ title: 'Review me' });
  const r1 = await agent.reviews.add({ target: `task:${task.id}`, verdict: 'request_changes', body: 'fix the tests' });
  const r2 = await t.owner.reviews.add({ target: `task:${task.id}`, verdict: 'approve', body: 'lgtm' });
  assert.equal(r1.status, 'open');
  assert.equal(r1.target, `task:${task.id}`);
  const resolved = await agent.reviews.resolve({ reviewId: r1.id });
  assert.equal(resolved.status, 'resolved');
  assert.equal(resolved.revision, 2);
  await fails(agent.reviews.resolve({ reviewId: r1.id }), 'conflict');
  const list = await agent.reviews.list({ target: `task:${task.id}` });
  // updatedAt DESC, id DESC: r1 was just resolved, so it leads unless both share one millisecond (then the id decides).
  const expected = [resolved, r2].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id)).map((r) => r.id);
  assert.deepEqual(list.reviews.map((r) => r.id), expected);
  // Each review names its author (display name and kind) beside the id, on add, get, list and resolve alike.
  const names = { [agentId]: { name: 'builder', kind: 'agent' }, [t.ownerId]: { name: 'Owner', kind: 'human' } };
  for (const r of [r1, r2, resolved, await agent.reviews.get({ reviewId: r2.id }), ...list.reviews]) assert.deepEqual([r.authorId, r.author], [r.authorId, names[r.authorId]]);
  assert.deepEqual(list.reviews.map((r) => r.author.kind).sort(), ['agent', 'human']);
  assert.ok(resolved.updatedAt >= r2.updatedAt);
  assert.deepEqual((await agent.reviews.list({ target: `task:${task.id}`, status: 'open' })).reviews.map((r) => r.id), [r2.id]);
  const reopened = await agent.reviews.reopen({ reviewId: r1.id });
  assert.equal(reopened.status, 'open');
  assert.equal(reopened.revision, 3);
  await fails(agent.reviews.reopen({ reviewId: r1.id }), 'conflict');
  assert.equal((await t.owner.reviews.get({ reviewId: r1.id })).revision, 3);
  await fails(agent.reviews.add({ target: 'channel:general', verdict: 'approve', body: 'x' }), 'validation_failed');
  // Thread reviews follow the channel's membership.
  await t.owner.channels.create({ id: 'private-review' });
  const root = await t.owner.messages.send({ target: 'channel:private-review', content: 'PR' });
  const rt = await t.owner.reviews.add({ target: `thread:private-review/${root.id}`, verdict: 'comment', body: 'note' });
  await fails(agent.reviews.get({ reviewId: rt.id }), 'not_found');
  await fails(agent.reviews.list({ target: `thread:private-review/${root.id}` }), 'not_found');
  await fails(agent.reviews.add({ target: `thread:private-review/${root.id}`, verdict: 'approve', body: 'x' }), 'not_found');
  await fails(agent.reviews.resolve({ reviewId: rt.id }), 'not_found');
});
