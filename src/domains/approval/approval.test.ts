// Tests the approval domain on the real server (SQLite, or PostgreSQL via the suites runner): requests on explicit subjects,
// Human-only idempotent decisions that post to the notify target, cancel by the requester, every denial, bounds, keyset walks
// in createdAt DESC, id DESC with ties on createdAt, filters bound into the cursor, and replays.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ServerApi } from '../../server-client/api.js';
import { systemClock } from '../../shared/clock.js';
import { startTestServer, type TestServer } from '../test-server.js';
import { PENDING_PER_REQUESTER_MAX, type ApprovalDto, type ApprovalPage } from './contract.js';

// A clock that advances only every 3 reads: many approvals share a createdAt, so the id tie-breaker is exercised. While
// `frozen` is set it stands still (the walk test pins pairs of requests to one instant, whatever reads came before).
let reads = 0;
let frozen: number | undefined;
const clock = { now: () => frozen ?? Date.UTC(2026, 0, 1) + Math.floor(reads++ / 3), setTimer: systemClock.setTimer };
let t: TestServer;
let alice: ServerApi;
let bob: ServerApi;
let aliceId: string;
let bobId: string;
let taskId: string;

before(async () => {
  t = await startTestServer({ clock });
  const a = await t.owner.members.createAgent({ name: 'alice' });
  const b = await t.owner.members.createAgent({ name: 'bob' });
  alice = t.client.as(a.credential);
  bob = t.client.as(b.credential);
  aliceId = a.agent.id;
  bobId = b.agent.id;
  taskId = (await alice.tasks.create({ title: 'Deploy' })).id;
});
after(async () => t.stop());

const code = (c: string) => (e: unknown) => (e as { code?: string }).code === c;

test('a Human approves; the decision posts once to the notify target; repeating it is idempotent; the other decision conflicts', async () => {
  const r = await alice.approvals.request({ subject: `task:${taskId}`, reason: 'Deploy to production' });
  assert.deepEqual([r.status, r.notify, r.requestedBy, r.decidedBy, r.revision], ['pending', `task:${taskId}`, aliceId, null, 1]);
  assert.deepEqual([r.requester, r.decider], [{ name: 'alice', kind: 'agent' }, null]);
  const ok = await t.owner.approvals.approve({ approvalId: r.id, note: 'ship it' });
  assert.deepEqual([ok.status, ok.decidedBy, ok.note, ok.revision], ['approved', t.ownerId, 'ship it', 2]);
  // Both people by name beside their ids, on the decision, on get and in a list page (one batched lookup per page).
  for (const x of [ok, await bob.approvals.get({ approvalId: r.id }), (await bob.approvals.list({ requesterId: aliceId })).approvals.find((a) => a.id === r.id)!]) {
    assert.deepEqual([x.requester, x.decider], [{ name: 'alice', kind: 'agent' }, { name: 'Owner', kind: 'human' }]);
  }
  const again = await t.owner.approvals.approve({ approvalId: r.id, note: 'ship it twice' });
  assert.deepEqual(again, ok, 'the same decision again changes nothing');
  await assert.rejects(t.owner.approvals.reject({ approvalId: r.id }), code('conflict'));
  await assert.rejects(alice.approvals.cancel({ approvalId: r.id }), code('conflict'));
  const posted = (await alice.messages.list({ target: `task:${taskId}` })).messages.filter((m) => m.content.includes(r.id));
  assert.equal(posted.length, 1, 'one notification, none for the replayed decision');
  assert.match(posted[0]!.content, /approved by .*: ship it/);
});

test('an agent deciding is denied; only the requester cancels; denied calls change nothing', async () => {
  const r = await alice.approvals.request({ subject: `task:${taskId}`, reason: 'Rotate keys', notify: `task:${taskId}` });
  await assert.rejects(alice.approvals.approve({ approvalId: r.id }), code('denied'));
  await assert.rejects(bob.approvals.reject({ approvalId: r.id, note: 'no' }), code('denied'));
  await assert.rejects(bob.approvals.cancel({ approvalId: r.id }), code('denied'));
  assert.deepEqual(await bob.approvals.get({ approvalId: r.id }), r);
  const c = await alice.approvals.cancel({ approvalId: r.id });
  assert.deepEqual([c.status, c.revision], ['cancelled', 2]);
  assert.deepEqual(await alice.approvals.cancel({ approvalId: r.id }), c, 'cancel is idempotent');
  await assert.rejects(t.owner.approvals.approve({ approvalId: r.id }), code('conflict'));
  const rej = await alice.approvals.request({ subject: `task:${taskId}`, reason: 'Drop table', notify: `task:${taskId}` });
  assert.equal((await t.owner.approvals.reject({ approvalId: rej.id, note: 'too risky' })).status, 'rejected');
  assert.ok((await alice.messages.list({ target: `task:${taskId}` })).messages.some((m) => m.content.includes(`${rej.id}`) && /rejected/.test(m.content)));
});

test('bad input is a typed failure and stores nothing', async () => {
  const n = (await t.owner.approvals.list({ limit: 100 })).approvals.length;
  await assert.rejects(alice.approvals.request({ subject: 'deploy', reason: 'x' }), code('validation_failed'));
  await assert.rejects(alice.approvals.request({ subject: 'task:', reason: 'x' }), code('validation_failed'));
  await assert.rejects(alice.approvals.request({ subject: 'task:tsk_missing', reason: 'x' }), code('not_found'));
  await assert.rejects(alice.approvals.request({ subject: `task:${taskId}`, reason: '' }), code('validation_failed'));
  await assert.rejects(alice.approvals.request({ subject: `task:${taskId}`, reason: 'r'.repeat(2001) }), code('validation_failed'));
  await assert.rejects(alice.approvals.request({ subject: `task:${taskId}`, reason: '\u0001'.repeat(2000) }), code('validation_failed'), 'over the byte bound');
  const team = await alice.teams.create({ handle: 'ops', displayName: 'Ops' });
  await assert.rejects(alice.approvals.request({ subject: `team:${team.id}`, reason: 'x' }), code('validation_failed'), 'a non-task subject needs notify');
  await assert.rejects(alice.approvals.request({ subject: `task:${taskId}`, reason: 'x', notify: 'general' }), code('validation_failed'));
  await assert.rejects(alice.approvals.request({ subject: `task:${taskId}`, reason: 'x', notify: 'dm:dm_nope' }), code('not_found'));
  await assert.rejects(alice.approvals.request({ subject: `task:${taskId}`, reason: 'x', notify: 'channel:general' }), code('not_found'), 'a channel the requester is not in');
  const p = await alice.approvals.request({ subject: `task:${taskId}`, reason: 'x' });
  await assert.rejects(t.owner.approvals.approve({ approvalId: p.id, note: 'n'.repeat(2001) }), code('validation_failed'));
  await assert.rejects(t.owner.approvals.approve({ approvalId: 'apr_missing' }), code('not_found'));
  await assert.rejects(alice.approvals.list({ status: 'done' as 'pending' }), code('validation_failed'));
  await assert.rejects(alice.approvals.list({ limit: 101 }), code('validation_failed'));
  assert.equal((await bob.approvals.get({ approvalId: p.id })).status, 'pending');
  assert.equal((await t.owner.approvals.list({ limit: 100 })).approvals.length, n + 1);
  assert.equal((await alice.approvals.request({ subject: `team:${team.id}`, reason: 'x', notify: `task:${taskId}` })).subject, `team:${team.id}`);
  // The bare id names the same subject (its prefix says the kind): stored and posted as kind:<id>, the task default notify.
  const bare = await alice.approvals.request({ subject: taskId, reason: 'bare' });
  assert.deepEqual([bare.subject, bare.notify], [`task:${taskId}`, `task:${taskId}`]);
  assert.equal((await alice.approvals.request({ subject: team.id, reason: 'x', notify: `task:${taskId}` })).subject, `team:${team.id}`);
  await assert.rejects(alice.approvals.request({ subject: team.id, reason: 'x' }), code('validation_failed'), 'a bare non-task subject needs notify too');
  await assert.rejects(alice.approvals.request({ subject: 'msg_1', reason: 'x' }), code('validation_failed'), 'a prefix that names no subject kind');
  await assert.rejects(alice.approvals.request({ subject: 'tsk_missing', reason: 'x' }), code('not_found'));
});

test('idempotency keys replay requests and decisions; a different body under a key is idempotency_conflict', async () => {
  const a = await alice.approvals.request({ subject: `task:${taskId}`, reason: 'keyed' }, { idempotencyKey: 'apr-k1' });
  assert.deepEqual(await alice.approvals.request({ subject: `task:${taskId}`, reason: 'keyed' }, { idempotencyKey: 'apr-k1' }), a);
  assert.deepEqual(await alice.approvals.request({ subject: taskId, reason: 'keyed' }, { idempotencyKey: 'apr-k1' }), a, 'the bare id is the same subject: a replay');
  await assert.rejects(alice.approvals.request({ subject: `task:${taskId}`, reason: 'other' }, { idempotencyKey: 'apr-k1' }), code('idempotency_conflict'));
  const d = await t.owner.approvals.approve({ approvalId: a.id }, { idempotencyKey: 'apr-k2' });
  assert.deepEqual(await t.owner.approvals.approve({ approvalId: a.id }, { idempotencyKey: 'apr-k2' }), d);
});

async function walk(page: (limit: number, cursor?: string) => Promise<ApprovalPage>, sizes: number[]): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; ; i++) {
    const p = await page(sizes[i % sizes.length]!, cursor);
    out.push(...p.approvals.map((x) => x.id));
    assert.equal(p.hasMore, p.nextCursor !== undefined);
    if (!p.hasMore) return out;
    cursor = p.nextCursor;
  }
}

test('walks with random page sizes and filters equal the full scan in createdAt DESC, id DESC with ties', async () => {
  for (let i = 0; i < 24; i++) {
    if (i % 2 === 0) frozen = clock.now();
    const r = await (i % 2 ? alice : bob).approvals.request({ subject: `task:${taskId}`, reason: `r${i}` });
    if (i % 3 === 0) await t.owner.approvals.reject({ approvalId: r.id });
    if (i % 2 === 1) frozen = undefined;
  }
  const all: ApprovalDto[] = [];
  let cursor: string | undefined;
  do {
    const p = await t.owner.approvals.list({ limit: 100, ...(cursor ? { cursor } : {}) });
    all.push(...p.approvals);
    cursor = p.nextCursor;
  } while (cursor);
  const cmp = (x: string, y: string) => Buffer.compare(Buffer.from(y), Buffer.from(x));
  assert.deepEqual(all.map((x) => x.id), [...all].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || cmp(a.id, b.id)).map((x) => x.id));
  assert.ok(new Set(all.map((x) => x.createdAt)).size < all.length, 'the data has createdAt ties');
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 4 }), fc.constantFrom(undefined, 'pending', 'rejected'), fc.constantFrom(undefined, aliceId, bobId), async (sizes, status, requesterId) => {
      const got = await walk((limit, c) => bob.approvals.list({ limit, ...(c ? { cursor: c } : {}), ...(status ? { status } : {}), ...(requesterId ? { requesterId } : {}) }), sizes);
      assert.deepEqual(got, all.filter((x) => (!status || x.status === status) && (!requesterId || x.requestedBy === requesterId)).map((x) => x.id));
    }),
    { numRuns: 15 },
  );
  const p = await bob.approvals.list({ limit: 2, status: 'pending' });
  await assert.rejects(bob.approvals.list({ limit: 2, status: 'rejected', cursor: p.nextCursor! }), code('validation_failed'), 'the cursor is bound to its filter');
});

test('an approval is visible only to members who may read its notify target: others get not_found for get, list, decide and cancel', async () => {
  const dm = await t.owner.channels.openDm({ memberIds: [aliceId] });
  const secret = await alice.approvals.request({ subject: `task:${taskId}`, reason: 'private: rotate the payroll key', notify: `dm:${dm.id}` });
  await t.owner.channels.create({ id: 'apr-ops' });
  await t.owner.channels.addMember({ channelId: 'apr-ops', memberId: aliceId });
  const ops = await alice.approvals.request({ subject: `task:${taskId}`, reason: 'ops only', notify: 'channel:apr-ops' });
  const ids = async (who: ServerApi) => {
    const out: string[] = [];
    let cursor: string | undefined;
    do {
      const p = await who.approvals.list({ limit: 100, ...(cursor ? { cursor } : {}) });
      out.push(...p.approvals.map((x) => x.id));
      cursor = p.nextCursor;
    } while (cursor);
    return out;
  };
  for (const id of [secret.id, ops.id]) {
    await assert.rejects(bob.approvals.get({ approvalId: id }), (e: unknown) => code('not_found')(e) && /approval not found/.test((e as Error).message));
    await assert.rejects(bob.approvals.cancel({ approvalId: id }), code('not_found'));
  }
  const bobSees = await ids(bob);
  assert.ok(!bobSees.includes(secret.id) && !bobSees.includes(ops.id), 'bob lists neither');
  assert.ok(bobSees.length > 0, 'bob still lists approvals on task targets');
  const aliceSees = await ids(alice);
  assert.ok(aliceSees.includes(secret.id) && aliceSees.includes(ops.id));
  // The owner reads every channel but not someone else's DM.
  const ownerSees = await ids(t.owner);
  assert.ok(ownerSees.includes(ops.id) && ownerSees.includes(secret.id), 'the owner is a member of the DM it opened');
  const carol = await t.owner.members.createAgent({ name: 'carol-apr' });
  const dm2 = await alice.channels.openDm({ memberIds: [carol.agent.id] });
  const theirs = await alice.approvals.request({ subject: `task:${taskId}`, reason: 'between alice and carol', notify: `dm:${dm2.id}` });
  await assert.rejects(t.owner.approvals.approve({ approvalId: theirs.id }), code('not_found'), 'a Human outside the DM cannot decide it');
  assert.ok(!(await ids(t.owner)).includes(theirs.id));
  assert.equal((await alice.approvals.get({ approvalId: theirs.id })).status, 'pending', 'the refused decision changed nothing');
  assert.equal((await t.owner.approvals.approve({ approvalId: ops.id })).status, 'approved', 'the owner decides what it can read');
});

test(`a member has at most ${PENDING_PER_REQUESTER_MAX} pending requests: one more is a conflict that stores and posts nothing; a cancel makes room; others are not limited`, async () => {
  const count = async (where: string) => Number((await t.querySql<{ n: number }>(`SELECT COUNT(*) AS n FROM approvals WHERE ${where}`))[0]?.n);
  const open = await count(`requested_by = '${bobId}' AND status = 'pending'`);
  await t.runSql(
    `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?) INSERT INTO approvals (id, subject, reason, notify, status, requested_by, decided_by, note, revision, created_at, updated_at) SELECT 'apr_fill' || i, ?, 'fill', ?, 'pending', ?, NULL, NULL, 1, 1, 1 FROM s`,
    [PENDING_PER_REQUESTER_MAX - open, `task:${taskId}`, `task:${taskId}`, bobId],
  );
  const before = await count('1 = 1');
  const posts = (await bob.messages.list({ target: `task:${taskId}`, limit: 100 })).messages.length;
  await assert.rejects(bob.approvals.request({ subject: `task:${taskId}`, reason: 'one too many' }), (e: unknown) => code('conflict')(e) && /at most 100 pending approval requests/.test((e as Error).message));
  assert.equal(await count('1 = 1'), before);
  assert.equal((await bob.messages.list({ target: `task:${taskId}`, limit: 100 })).messages.length, posts);
  assert.equal((await alice.approvals.request({ subject: `task:${taskId}`, reason: 'alice is not limited by bob' })).status, 'pending');
  await bob.approvals.cancel({ approvalId: 'apr_fill1' });
  assert.equal((await bob.approvals.request({ subject: `task:${taskId}`, reason: 'fits again' })).status, 'pending');
});
