// Tests the turn feed: @name mention matching; system notices (stored kind) start no turn and count for no loop bound;
// a waiting read wakes on a committed message, not on a timer (the server's clock never moves here).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { FakeClock } from '../../shared/clock.js';
import type { ServerApi } from '../../server-client/api.js';
import { startTestServer, type TestServer } from '../test-server.js';
import { mentions } from './service.js';

test('mentions match @name as a whole word only', () => {
  for (const s of ['@demo hi', 'hi @demo', 'hi @Demo.', '(@demo)', '@demo, please', 'ask @demo: why']) assert.equal(mentions(s, 'demo'), true, s);
  for (const s of ['@demos hi', 'mail me@demo', '@demo-2 hi', '@demo.x', 'demo', '@dem']) assert.equal(mentions(s, 'demo'), false, s);
  assert.equal(mentions('ping @a.b now', 'a.b'), true);
  assert.equal(mentions('ping @aXb now', 'a.b'), false);
});

// Time stands still: a waiting read can only end by being woken (its recheck timer never fires).
const clock = new FakeClock(Date.UTC(2026, 0, 1));
let t: TestServer;
let alice: ServerApi;
let bob: ServerApi;
let dm = '';

before(async () => {
  t = await startTestServer({ clock });
  const a = await t.owner.members.createAgent({ name: 'alice' });
  const b = await t.owner.members.createAgent({ name: 'bob' });
  alice = t.client.as(a.credential);
  bob = t.client.as(b.credential);
  dm = `dm:${(await t.owner.channels.openDm({ memberIds: [a.agent.id, b.agent.id] })).id}`;
});
after(async () => t?.stop());

const code = (c: string) => (e: unknown) => (e as { code?: string }).code === c;

test("a notice is an agent's own, reads back with its kind, starts no turn for any agent and counts for no loop bound", async () => {
  await assert.rejects(t.owner.messages.send({ target: dm, content: 'fake notice', kind: 'notice' }), code('denied'), 'a Human cannot post a notice');
  await assert.rejects(t.owner.messages.send({ target: dm, content: 'x', kind: 'bogus' as 'notice' }), code('validation_failed'));
  const hello = await t.owner.messages.send({ target: dm, content: 'hello you two' });
  const a0 = await alice.turns.read({ after: 0 });
  const b0 = await bob.turns.read({ after: 0 });
  assert.deepEqual([a0.turns.map((x) => x.messageId), b0.turns.map((x) => x.messageId)], [[hello.id], [hello.id]]);

  const notice = await alice.messages.send({ target: dm, content: 'alice could not answer (exit_nonzero)', kind: 'notice' });
  assert.equal(notice.kind, 'notice');
  const b1 = await bob.turns.read({ after: b0.cursor });
  assert.ok(b1.cursor > b0.cursor, 'the feed moved past the notice');
  assert.deepEqual(b1.turns, [], "another agent's notice is no turn");
  assert.deepEqual((await t.owner.messages.list({ target: dm, limit: 5 })).messages.map((m) => m.kind ?? null), ['notice', null]);

  // The loop bound counts agent messages only: alice, bob's notice, alice → a run of 2, not 3.
  await alice.messages.send({ target: dm, content: 'first' });
  await bob.messages.send({ target: dm, content: 'bob could not answer (timeout)', kind: 'notice' });
  const second = await alice.messages.send({ target: dm, content: 'second' });
  const b2 = await bob.turns.read({ after: b1.cursor });
  assert.deepEqual(b2.turns.map((x) => [x.content, x.agentRun]), [['first', 1], ['second', 2]]);
  assert.equal(b2.turns.at(-1)!.messageId, second.id);
});

test('a waiting read wakes when a message addressed to the agent is committed (no timer fires)', async () => {
  const { cursor } = await bob.turns.read({ after: 0 });
  // Drain the feed up to now, then wait long; the server's clock never moves, so only the commit can end the wait.
  let at = cursor;
  for (let p = await bob.turns.read({ after: at }); p.cursor > at; p = await bob.turns.read({ after: at })) at = p.cursor;
  const waiting = bob.turns.read({ after: at, waitMs: 8000 });
  const posted = await t.owner.messages.send({ target: dm, content: 'are you there?' });
  const woke = await Promise.race([waiting, new Promise<'stuck'>((r) => setTimeout(() => r('stuck'), 5000).unref())]);
  assert.notEqual(woke, 'stuck', 'the read was not woken by the commit');
  assert.deepEqual(woke !== 'stuck' && woke.turns.map((x) => x.messageId), [posted.id]);
});

test('a feed cursor past six digits is read as a number (the route decodes up to 15), a malformed one is refused', async () => {
  assert.deepEqual(await bob.turns.read({ after: 12_345_678_901 }), { turns: [], cursor: 12_345_678_901 });
  await assert.rejects(bob.turns.read({ after: -1 }), code('validation_failed'));
});
