// Tests the project domain on the real server (SQLite, or PostgreSQL via the suites runner): rules, denials, bounds,
// keyset walks in updatedAt DESC, id ASC with ties on every key, stale cursors, idempotent replay, tasks under a project.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ServerApi } from '../../server-client/api.js';
import { systemClock, type Clock } from '../../shared/clock.js';
import { startTestServer, type TestServer } from '../test-server.js';
import type { ProjectDto } from './contract.js';

let t: TestServer;
let now = Date.UTC(2026, 0, 1);
/** Time moves only when a test says so, so many projects share one updatedAt (ties on the first key). */
const clock: Clock = { now: () => now, setTimer: systemClock.setTimer };
let alice: ServerApi;
let bob: ServerApi;
let aliceId: string;

before(async () => {
  t = await startTestServer({ clock });
  const a = await t.owner.members.createAgent({ name: 'alice' });
  alice = t.client.as(a.credential);
  aliceId = a.agent.id;
  bob = t.client.as((await t.owner.members.createAgent({ name: 'bob' })).credential);
});
after(async () => t.stop());

const code = (c: string) => (e: unknown) => (e as { code?: string }).code === c;

test('the creator and the owner change a project; every other member reads it and is denied any change', async () => {
  const p = await alice.projects.create({ name: 'Relaunch', description: 'site' });
  assert.deepEqual([p.status, p.revision, p.createdBy, p.creator], ['active', 1, aliceId, { name: 'alice', kind: 'agent' }]);
  assert.equal((await bob.projects.get({ projectId: p.id })).name, 'Relaunch');
  // Every read names the creator (one batched lookup per page), whoever reads and whoever last changed it.
  assert.deepEqual((await bob.projects.get({ projectId: p.id })).creator, { name: 'alice', kind: 'agent' });
  assert.deepEqual((await bob.projects.list({ query: 'relaunch' })).projects.map((x) => x.creator), [{ name: 'alice', kind: 'agent' }]);
  await assert.rejects(bob.projects.update({ projectId: p.id, expectedRevision: 1, name: 'mine' }), code('denied'));
  await assert.rejects(bob.projects.archive({ projectId: p.id }), code('denied'));
  await assert.rejects(bob.projects.unarchive({ projectId: p.id }), code('denied'));
  const u = await alice.projects.update({ projectId: p.id, expectedRevision: 1, name: 'Relaunch 2' });
  assert.equal(u.revision, 2);
  await assert.rejects(alice.projects.update({ projectId: p.id, expectedRevision: 1, name: 'stale' }), code('conflict'));
  const o = await t.owner.projects.update({ projectId: p.id, expectedRevision: 2, description: 'by the owner' });
  assert.deepEqual([o.description, o.creator.name], ['by the owner', 'alice'], 'an update by the owner keeps the creator');
  const arch = await alice.projects.archive({ projectId: p.id, expectedRevision: 3 });
  assert.equal(arch.status, 'archived');
  await assert.rejects(alice.projects.archive({ projectId: p.id }), code('conflict'));
  assert.equal((await t.owner.projects.unarchive({ projectId: p.id })).status, 'active');
  assert.equal((await bob.projects.get({ projectId: p.id })).revision, 5, 'a denied call changed nothing');
});

test('bad input is validation_failed and changes nothing; unknown and off-grammar ids are not_found / refused', async () => {
  const before = (await alice.projects.list({ limit: 100 })).projects.length;
  await assert.rejects(alice.projects.create({ name: '' }), code('validation_failed'));
  await assert.rejects(alice.projects.create({ name: 'x'.repeat(201) }), code('validation_failed'));
  await assert.rejects(alice.projects.create({ name: 'ok', description: 'd'.repeat(4001) }), code('validation_failed'));
  await assert.rejects(alice.projects.create({ name: '   ' }), code('validation_failed'));
  await assert.rejects(alice.projects.list({ status: 'gone' as never }), code('validation_failed'));
  await assert.rejects(alice.projects.list({ query: 'q'.repeat(201) }), code('validation_failed'));
  await assert.rejects(alice.projects.get({ projectId: 'prj_missing' }), code('not_found'));
  await assert.rejects(alice.projects.get({ projectId: '..' }), code('validation_failed'));
  const p = await alice.projects.create({ name: 'bounds' });
  await assert.rejects(alice.projects.update({ projectId: p.id, expectedRevision: 1 }), code('validation_failed'));
  assert.equal((await alice.projects.list({ limit: 100 })).projects.length, before + 1);
});

test('an idempotency key replays the same project; a different body under the key is idempotency_conflict', async () => {
  const a = await alice.projects.create({ name: 'keyed' }, { idempotencyKey: 'prj-k1' });
  const b = await alice.projects.create({ name: 'keyed' }, { idempotencyKey: 'prj-k1' });
  assert.equal(a.id, b.id);
  await assert.rejects(alice.projects.create({ name: 'other' }, { idempotencyKey: 'prj-k1' }), code('idempotency_conflict'));
  const u1 = await alice.projects.archive({ projectId: a.id }, { idempotencyKey: 'prj-k2' });
  const u2 = await alice.projects.archive({ projectId: a.id }, { idempotencyKey: 'prj-k2' });
  assert.deepEqual(u1, u2);
});

/** The spec's order computed here: updatedAt DESC, then id ASC (byte order). */
const specOrder = (ps: ProjectDto[]) => [...ps].sort((a, b) => (a.updatedAt !== b.updatedAt ? (a.updatedAt < b.updatedAt ? 1 : -1) : Buffer.compare(Buffer.from(a.id), Buffer.from(b.id)))).map((p) => p.id);

async function walk(api: ServerApi, sizes: number[], filter: { status?: 'active' | 'archived'; query?: string } = {}): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; ; i++) {
    const p = await api.projects.list({ ...filter, limit: sizes[i % sizes.length]!, ...(cursor ? { cursor } : {}) });
    ids.push(...p.projects.map((x) => x.id));
    assert.equal(p.hasMore, p.nextCursor !== undefined);
    if (!p.hasMore) return ids;
    cursor = p.nextCursor;
  }
}

test('walks with random page sizes equal the full scan in updatedAt DESC, id ASC, with ties on every key and with filters', async () => {
  // Ties on updatedAt (one clock value per batch) and on the name; the id alone breaks them.
  for (let batch = 0; batch < 4; batch++) {
    now += 1000;
    for (let i = 0; i < 9; i++) await bob.projects.create({ name: i % 2 ? 'Walk Alpha' : 'walk beta' });
  }
  const all: ProjectDto[] = [];
  for (const id of await walk(bob, [100])) all.push(await bob.projects.get({ projectId: id }));
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 }), fc.constantFrom(undefined, 'alpha', 'WALK', 'beta'), async (sizes, query) => {
      const expected = specOrder(all.filter((p) => query === undefined || p.name.toLowerCase().includes(query.toLowerCase())));
      assert.deepEqual(await walk(bob, sizes, query ? { query } : {}), expected);
    }),
    { numRuns: 15 },
  );
  assert.deepEqual(await walk(bob, [7], { status: 'archived' }), specOrder(all.filter((p) => p.status === 'archived')));
  const first = await bob.projects.list({ limit: 2, query: 'alpha' });
  await assert.rejects(bob.projects.list({ limit: 2, query: 'beta', cursor: first.nextCursor! }), code('validation_failed'));
});

test('a project that moves between pages makes the cursor stale instead of being skipped or repeated', async () => {
  const page = await bob.projects.list({ limit: 3 });
  const later = (await walk(bob, [100])).at(-1)!;
  now += 1000;
  const cur = await bob.projects.get({ projectId: later });
  await t.owner.projects.update({ projectId: later, expectedRevision: cur.revision, name: `${cur.name}!` });
  await assert.rejects(bob.projects.list({ limit: 3, cursor: page.nextCursor! }), (e: Error) => code('validation_failed')(e) && /stale/.test(e.message));
});

test('tasks belong to a project: create and update take projectId, list filters by it; archived projects take no new tasks', async () => {
  const p = await alice.projects.create({ name: 'with tasks' });
  const q = await alice.projects.create({ name: 'other tasks' });
  const t1 = await bob.tasks.create({ title: 'in p', projectId: p.id });
  assert.equal(t1.projectId, p.id);
  const t2 = await bob.tasks.create({ title: 'loose' });
  assert.equal(t2.projectId, null);
  const t2b = await bob.tasks.update({ taskId: t2.id, expectedRevision: t2.revision, projectId: q.id });
  assert.equal(t2b.projectId, q.id);
  assert.deepEqual((await bob.tasks.list({ projectId: p.id })).tasks.map((x) => x.id), [t1.id]);
  assert.deepEqual((await bob.tasks.list({ projectId: q.id })).tasks.map((x) => x.id), [t2.id]);
  const moved = await bob.tasks.update({ taskId: t2.id, expectedRevision: t2b.revision, projectId: null });
  assert.equal(moved.projectId, null);
  await assert.rejects(bob.tasks.create({ title: 'x', projectId: 'prj_nope' }), code('validation_failed'));
  await alice.projects.archive({ projectId: q.id });
  await assert.rejects(bob.tasks.create({ title: 'late', projectId: q.id }), code('conflict'));
});
