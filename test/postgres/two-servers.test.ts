// Tests two AgentTeam Server instances on one PostgreSQL database: one identity, racing updates (one winner), no lost writes, idempotency across servers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerApi } from '../../src/server-client/api.js';
import type { TaskDto } from '../../src/domains/task/contract.js';
import { ServerCallError, ServerClient } from '../../src/server-client/client.js';
import { startServer, type RunningServer } from '../../src/server/main.js';
import { TEST_ADMIN_TOKEN } from '../../src/domains/test-server.js';
import { startCluster, type Cluster } from './cluster.js';
import { DOMAINS, serverClient } from '../../src/domains/registry.js';

let cluster: Cluster;
let a: RunningServer;
let b: RunningServer;
let ca: ServerClient;
let cb: ServerClient;
let ownerA: ServerApi;
let ownerB: ServerApi;

before(async () => {
  cluster = await startCluster();
  const db = await cluster.createDatabase();
  // Both start at once on an empty database: migrations and the workspace identity must not race.
  [a, b] = await Promise.all([startServer({ domains: DOMAINS,  db, adminToken: TEST_ADMIN_TOKEN }), startServer({ domains: DOMAINS,  db, adminToken: 'second-admin-token-abcdefgh' })]);
  ca = serverClient({ baseUrl: a.url });
  cb = serverClient({ baseUrl: b.url });
  const boot = await ca.bootstrap(TEST_ADMIN_TOKEN, { ownerName: 'Owner' });
  ownerA = ca.as(boot.ownerCredential!);
  ownerB = cb.as(boot.ownerCredential!);
});
after(async () => {
  ca?.close();
  cb?.close();
  await a?.close();
  await b?.close();
  await cluster?.stop();
});

const isCode = (code: string) => (e: unknown) => e instanceof ServerCallError && e.code === code;

test('both servers are one product owner: same serverId, same workspace, credentials valid on either', async () => {
  assert.notEqual(a.url, b.url);
  assert.equal(a.serverId, b.serverId);
  const again = await cb.bootstrap('second-admin-token-abcdefgh');
  assert.equal(again.created, false);
  assert.equal(again.ownerCredential, undefined);
  assert.equal((await cb.info()).workspaceId, (await ca.info()).workspaceId);
  const agent = await ownerB.members.createAgent({ name: 'on-b' });
  assert.equal((await ca.as(agent.credential).members.me()).id, agent.agent.id);
  const m = await ca.as(agent.credential).messages.send({ target: 'channel:general', content: 'via A' }).catch((e) => e);
  assert.ok(isCode('not_found')(m), 'the agent is not in #general yet: membership is shared state');
  await ownerA.channels.addMember({ channelId: 'general', memberId: agent.agent.id });
  await cb.as(agent.credential).messages.send({ target: 'channel:general', content: 'via B' });
  assert.equal((await ownerA.messages.list({ target: 'channel:general' })).messages[0]!.content, 'via B');
});

test('concurrent updates of one task at the same revision: exactly one wins, the other gets conflict', async () => {
  const task = await ownerA.tasks.create({ title: 'contended' });
  let rev = task.revision;
  for (let round = 0; round < 15; round++) {
    const results = await Promise.allSettled([
      ownerA.tasks.update({ taskId: task.id, expectedRevision: rev, title: `A${round}` }),
      ownerB.tasks.update({ taskId: task.id, expectedRevision: rev, title: `B${round}` }),
    ]);
    const won = results.filter((r): r is PromiseFulfilledResult<TaskDto> => r.status === 'fulfilled');
    assert.equal(won.length, 1, `round ${round}: exactly one winner`);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    assert.ok(isCode('conflict')(lost.reason), String(lost.reason));
    const now = await ownerB.tasks.get({ taskId: task.id });
    assert.equal(now.revision, rev + 1);
    assert.equal(now.title, won[0]!.value.title);
    rev = now.revision;
  }
});

test('racing transitions: one start wins; racing assigns both apply (no lost revision bump)', async () => {
  for (let round = 0; round < 8; round++) {
    const task = await ownerB.tasks.create({ title: `race ${round}` });
    const starts = await Promise.allSettled([ownerA.tasks.transition({ taskId: task.id, transition: 'start' }), ownerB.tasks.transition({ taskId: task.id, transition: 'start' })]);
    assert.equal(starts.filter((r) => r.status === 'fulfilled').length, 1);
    assert.ok(starts.some((r) => r.status === 'rejected' && isCode('conflict')(r.reason)));
    const assigns = await Promise.all([
      ownerA.tasks.assign({ taskId: task.id, assigneeId: null }),
      ownerB.tasks.assign({ taskId: task.id, assigneeId: null }),
      ownerA.tasks.comment({ taskId: task.id, body: 'both servers' }),
    ]);
    assert.equal(assigns.length, 3);
    const final = await ownerA.tasks.get({ taskId: task.id });
    assert.equal(final.status, 'in_progress');
    assert.equal(final.revision, task.revision + 4, 'start + two assigns + one comment, none lost');
  }
});

test('racing reviews resolve: one wins; racing channel creation: one wins', async () => {
  const task = await ownerA.tasks.create({ title: 'reviewed' });
  const r = await ownerA.reviews.add({ target: `task:${task.id}`, verdict: 'comment', body: 'x' });
  const res = await Promise.allSettled([ownerA.reviews.resolve({ reviewId: r.id }), ownerB.reviews.resolve({ reviewId: r.id })]);
  assert.equal(res.filter((x) => x.status === 'fulfilled').length, 1);
  assert.equal((await ownerB.reviews.get({ reviewId: r.id })).revision, 2);
  for (let i = 0; i < 5; i++) {
    const made = await Promise.allSettled([ownerA.channels.create({ id: `dup-${i}` }), ownerB.channels.create({ id: `dup-${i}` })]);
    assert.equal(made.filter((x) => x.status === 'fulfilled').length, 1);
    assert.ok(made.some((x) => x.status === 'rejected' && isCode('conflict')(x.reason)));
  }
});

test('one idempotency key used concurrently on both servers creates one task; others replay it or see 409', async () => {
  const count = async (title: string) => {
    let n = 0;
    let cursor: string | undefined;
    for (;;) {
      const p = await ownerA.tasks.list({ limit: 100, ...(cursor ? { cursor } : {}) });
      n += p.tasks.filter((t) => t.title === title).length;
      if (!p.nextCursor) return n;
      cursor = p.nextCursor;
    }
  };
  for (let round = 0; round < 6; round++) {
    const title = `idem ${round}`;
    const key = `k-both-${round}`;
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => (i % 2 ? ownerA : ownerB).tasks.create({ title }, { idempotencyKey: key })));
    const ok = results.filter((r): r is PromiseFulfilledResult<TaskDto> => r.status === 'fulfilled');
    assert.ok(ok.length >= 1, `round ${round}: someone created it`);
    assert.ok(ok.every((r) => r.value.id === ok[0]!.value.id), 'every success is the same task');
    for (const r of results) if (r.status === 'rejected') assert.ok(isCode('conflict')(r.reason), String(r.reason));
    assert.equal(await count(title), 1, `round ${round}: exactly one task`);
    // Once settled, either server replays the stored response; a different body is 422.
    assert.equal((await ownerB.tasks.create({ title }, { idempotencyKey: key })).id, ok[0]!.value.id);
    await assert.rejects(ownerA.tasks.create({ title: `${title}!` }, { idempotencyKey: key }), isCode('idempotency_conflict'));
  }
});

test('messages posted through both servers at once are all kept and page back in one newest-first order', async () => {
  await ownerA.channels.create({ id: 'busy' });
  const sent = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? ownerA : ownerB).messages.send({ target: 'channel:busy', content: `m${i}` })));
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; ; i++) {
    const p = await (i % 2 ? ownerA : ownerB).messages.list({ target: 'channel:busy', limit: 7, ...(cursor ? { cursor } : {}) });
    ids.push(...p.messages.map((m) => m.id));
    if (!p.nextCursor) break;
    cursor = p.nextCursor;
  }
  assert.equal(ids.length, 60);
  assert.deepEqual([...ids].sort(), sent.map((m) => m.id).sort());
  const full = (await ownerA.messages.list({ target: 'channel:busy', limit: 100 })).messages.map((m) => m.id);
  assert.deepEqual(ids, full, 'a cursor from one server is honored by the other, same order');
});

test('bootstrap racing on two servers over a fresh database creates one workspace and one owner', async () => {
  const db = await cluster.createDatabase();
  const [x, y] = await Promise.all([startServer({ domains: DOMAINS,  db, adminToken: TEST_ADMIN_TOKEN }), startServer({ domains: DOMAINS,  db, adminToken: TEST_ADMIN_TOKEN })]);
  const cx = serverClient({ baseUrl: x.url });
  const cy = serverClient({ baseUrl: y.url });
  try {
    const boots = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? cx : cy).bootstrap(TEST_ADMIN_TOKEN, { ownerName: `Owner-${i}` })));
    const created = boots.filter((r) => r.created);
    assert.equal(created.length, 1, 'exactly one bootstrap created the workspace');
    assert.ok(created[0]!.ownerCredential);
    assert.ok(boots.filter((r) => !r.created).every((r) => r.ownerCredential === undefined));
    assert.equal(new Set(boots.map((r) => r.workspaceId)).size, 1);
    assert.equal(new Set(boots.map((r) => r.owner.id)).size, 1);
    const members = await cy.as(created[0]!.ownerCredential!).members.list();
    assert.equal(members.filter((m) => m.role === 'owner').length, 1);
    assert.deepEqual((await cx.as(created[0]!.ownerCredential!).channels.list()).map((c) => c.id), ['general']);
  } finally {
    cx.close();
    cy.close();
    await x.close();
    await y.close();
  }
});
