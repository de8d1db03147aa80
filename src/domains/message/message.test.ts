// Tests the message domain's per-member thread bound on the real server (SQLite, or PostgreSQL via the suites runner), on
// a fake clock: a member starts at most THREADS_STARTED_MAX new threads per THREAD_WINDOW_MS; past it nothing is stored.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerApi } from '../../server-client/api.js';
import { FakeClock } from '../../shared/clock.js';
import { startTestServer, type TestServer } from '../test-server.js';
import { THREAD_WINDOW_MS, THREADS_STARTED_MAX } from './contract.js';

const clock = new FakeClock(Date.UTC(2026, 0, 1));
let t: TestServer;
let flood: ServerApi;
before(async () => {
  t = await startTestServer({ clock });
  const a = await t.owner.members.createAgent({ name: 'flood' });
  flood = t.client.as(a.credential);
  await t.owner.channels.create({ id: 'busy' });
  await t.owner.channels.addMember({ channelId: 'busy', memberId: a.agent.id });
});
after(async () => t.stop());

const count = async (sql: string, p: string[] = []) => Number((await t.querySql<{ n: number }>(sql, p))[0]?.n);

test(`a member starts at most ${THREADS_STARTED_MAX} new threads per ${THREAD_WINDOW_MS / 1000} s; replies in existing threads, other members and the next window go on (failed before: threads were unbounded)`, async () => {
  const roots: { id: string }[] = [];
  for (let i = 0; i < THREADS_STARTED_MAX + 2; i++) roots.push(await t.owner.messages.send({ target: 'channel:busy', content: `root ${i}` }));
  const thread = (i: number) => `thread:busy/${roots[i]!.id}`;
  for (let i = 0; i < THREADS_STARTED_MAX; i++) await flood.messages.send({ target: thread(i), content: `start ${i}` });
  const stored = await count('SELECT COUNT(*) AS n FROM messages');
  await assert.rejects(flood.messages.send({ target: thread(THREADS_STARTED_MAX), content: 'one more' }), (e: { code?: string; message?: string; hint?: string }) => e.code === 'conflict' && new RegExp(`at most ${THREADS_STARTED_MAX} new threads`).test(e.message ?? ''));
  assert.equal(await count('SELECT COUNT(*) AS n FROM messages'), stored, 'nothing stored');
  assert.equal(await count('SELECT COUNT(*) AS n FROM thread_starts WHERE target = ?', [thread(THREADS_STARTED_MAX)]), 0);
  await flood.messages.send({ target: thread(0), content: 'a reply in a thread it started' });
  // The owner started none: the bound is per member.
  await t.owner.messages.send({ target: thread(THREADS_STARTED_MAX), content: 'owner starts it' });
  await flood.messages.send({ target: thread(THREADS_STARTED_MAX), content: 'a reply in the owner\'s thread' });
  clock.advance(THREAD_WINDOW_MS);
  await flood.messages.send({ target: thread(THREADS_STARTED_MAX + 1), content: 'the next window' });
  assert.equal(await count('SELECT COUNT(*) AS n FROM thread_starts'), THREADS_STARTED_MAX + 2);
});
