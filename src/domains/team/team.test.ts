// Tests the team domain on the real server (SQLite, or PostgreSQL via the suites runner): rules, denials, handle uniqueness
// ignoring case, bounds, keyset walks in displayName, handle, teamId order with ties on every key, members paging, replays.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ServerApi } from '../../server-client/api.js';
import { startTestServer, type TestServer } from '../test-server.js';
import type { TeamDto } from './contract.js';

let t: TestServer;
let alice: ServerApi;
let bob: ServerApi;
let aliceId: string;
let bobId: string;

before(async () => {
  t = await startTestServer();
  const a = await t.owner.members.createAgent({ name: 'alice' });
  const b = await t.owner.members.createAgent({ name: 'bob' });
  alice = t.client.as(a.credential);
  bob = t.client.as(b.credential);
  aliceId = a.agent.id;
  bobId = b.agent.id;
});
after(async () => t.stop());

const code = (c: string) => (e: unknown) => (e as { code?: string }).code === c;

test('handles are unique per workspace ignoring case; the creator and the owner change a team, others are denied', async () => {
  const web = await alice.teams.create({ handle: 'Web', displayName: 'Web team' });
  assert.deepEqual(web.creator, { name: 'alice', kind: 'agent' });
  // Every read names the creator (one batched lookup per page).
  assert.deepEqual((await bob.teams.get({ teamId: web.id })).creator, { name: 'alice', kind: 'agent' });
  assert.ok((await bob.teams.list({ limit: 100 })).teams.every((x) => x.creator.kind === 'agent' && typeof x.creator.name === 'string'));
  await assert.rejects(bob.teams.create({ handle: 'web', displayName: 'copy' }), code('conflict'));
  await assert.rejects(bob.teams.create({ handle: 'WEB', displayName: 'copy' }), code('conflict'));
  const api = await bob.teams.create({ handle: 'api', displayName: 'API' });
  await assert.rejects(bob.teams.update({ teamId: api.id, expectedRevision: 1, handle: 'wEb' }), code('conflict'));
  assert.equal((await bob.teams.update({ teamId: api.id, expectedRevision: 1, handle: 'API' })).handle, 'API', 'a team may change the case of its own handle');
  await assert.rejects(bob.teams.update({ teamId: web.id, expectedRevision: 1, displayName: 'mine' }), code('denied'));
  await assert.rejects(bob.teams.addMember({ teamId: web.id, memberId: bobId }), code('denied'));
  await assert.rejects(bob.teams.removeMember({ teamId: web.id, memberId: aliceId }), code('denied'));
  assert.equal((await bob.teams.get({ teamId: web.id })).revision, 1, 'denied calls changed nothing');
  const added = await alice.teams.addMember({ teamId: web.id, memberId: bobId });
  assert.deepEqual([added.member.memberId, added.member.name, added.member.kind], [bobId, 'bob', 'agent']);
  assert.equal((await alice.teams.addMember({ teamId: web.id, memberId: bobId })).member.addedAt, added.member.addedAt, 'adding twice is one membership');
  assert.equal((await t.owner.teams.addMember({ teamId: web.id, memberId: t.ownerId })).member.kind, 'human');
  assert.deepEqual((await bob.teams.members({ teamId: web.id })).members.map((m) => m.memberId).sort(), [bobId, t.ownerId].sort());
  assert.equal((await t.owner.teams.removeMember({ teamId: web.id, memberId: bobId })).removed, true);
  assert.equal((await alice.teams.removeMember({ teamId: web.id, memberId: bobId })).removed, false);
  await assert.rejects(alice.teams.update({ teamId: web.id, expectedRevision: 1, displayName: 'stale' }), code('conflict'));
  assert.equal((await t.owner.teams.update({ teamId: web.id, expectedRevision: 4, description: 'owner edit' })).description, 'owner edit');
});

test('bad input is validation_failed or not_found and changes nothing', async () => {
  const n = (await alice.teams.list({ limit: 100 })).teams.length;
  for (const handle of ['', '-x', 'a b', 'x'.repeat(41), 'é']) await assert.rejects(alice.teams.create({ handle, displayName: 'x' }), code('validation_failed'), handle);
  await assert.rejects(alice.teams.create({ handle: 'ok1', displayName: '' }), code('validation_failed'));
  await assert.rejects(alice.teams.create({ handle: 'ok1', displayName: 'd'.repeat(101) }), code('validation_failed'));
  await assert.rejects(alice.teams.create({ handle: 'ok1', displayName: 'x', description: 'z'.repeat(2001) }), code('validation_failed'));
  await assert.rejects(alice.teams.get({ teamId: 'team_missing' }), code('not_found'));
  const tm = await alice.teams.create({ handle: 'bounds', displayName: 'Bounds' });
  await assert.rejects(alice.teams.addMember({ teamId: tm.id, memberId: 'agt_nobody' }), code('not_found'));
  await assert.rejects(alice.teams.update({ teamId: tm.id, expectedRevision: 1 }), code('validation_failed'));
  await assert.rejects(alice.teams.members({ teamId: 'team_missing' }), code('not_found'));
  assert.equal((await alice.teams.list({ limit: 100 })).teams.length, n + 1);
});

test('an idempotency key replays the same team; a different body under the key is idempotency_conflict', async () => {
  const a = await alice.teams.create({ handle: 'keyed', displayName: 'Keyed' }, { idempotencyKey: 'team-k1' });
  const b = await alice.teams.create({ handle: 'keyed', displayName: 'Keyed' }, { idempotencyKey: 'team-k1' });
  assert.equal(a.id, b.id);
  await assert.rejects(alice.teams.create({ handle: 'keyed2', displayName: 'Keyed' }, { idempotencyKey: 'team-k1' }), code('idempotency_conflict'));
});

const cmp = (x: string, y: string) => Buffer.compare(Buffer.from(x), Buffer.from(y));
const specOrder = (ts: TeamDto[]) => [...ts].sort((a, b) => cmp(a.displayName, b.displayName) || cmp(a.handle, b.handle) || cmp(a.id, b.id)).map((x) => x.id);

async function walk<T extends { hasMore: boolean; nextCursor?: string }>(page: (limit: number, cursor?: string) => Promise<T>, ids: (p: T) => string[], sizes: number[]): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; ; i++) {
    const p = await page(sizes[i % sizes.length]!, cursor);
    out.push(...ids(p));
    assert.equal(p.hasMore, p.nextCursor !== undefined);
    if (!p.hasMore) return out;
    cursor = p.nextCursor;
  }
}

test('walks with random page sizes equal the full scan in displayName ASC, handle ASC, teamId ASC with ties on every key', async () => {
  // Ties on displayName (3 values) and on handle up to case (Bx / bx sort apart in binary order; the id breaks nothing else).
  for (let i = 0; i < 30; i++) await (i % 2 ? alice : bob).teams.create({ handle: `${i % 3 ? 'b' : 'B'}x${i}`, displayName: ['Alpha', 'alpha', 'Beta'][i % 3]! });
  const all: TeamDto[] = [];
  for (const id of await walk((limit, cursor) => bob.teams.list({ limit, ...(cursor ? { cursor } : {}) }), (p) => p.teams.map((x) => x.id), [100])) all.push(await bob.teams.get({ teamId: id }));
  assert.deepEqual(all.map((x) => x.id), specOrder(all));
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 5 }), async (sizes) => {
      assert.deepEqual(await walk((limit, cursor) => alice.teams.list({ limit, ...(cursor ? { cursor } : {}) }), (p) => p.teams.map((x) => x.id), sizes), specOrder(all));
    }),
    { numRuns: 12 },
  );
  // A rename moves a team: the rest of the walk is rejected as stale, never silently skipped.
  const first = await bob.teams.list({ limit: 5 });
  const last = all.at(-1)!;
  const cur = await alice.teams.get({ teamId: last.id }).catch(() => bob.teams.get({ teamId: last.id }));
  await t.owner.teams.update({ teamId: last.id, expectedRevision: cur.revision, displayName: 'AAA first now' });
  await assert.rejects(bob.teams.list({ limit: 5, cursor: first.nextCursor! }), (e: Error) => code('validation_failed')(e) && /stale/.test(e.message));
});

test('members page by member id; the cursor is bound to its team', async () => {
  const big = await t.owner.teams.create({ handle: 'big', displayName: 'Big' });
  const other = await t.owner.teams.create({ handle: 'other', displayName: 'Other' });
  const ids = [aliceId, bobId, t.ownerId];
  for (let i = 0; i < 9; i++) ids.push((await t.owner.members.createAgent({ name: `m${i}` })).agent.id);
  for (const id of ids) await t.owner.teams.addMember({ teamId: big.id, memberId: id });
  const expected = [...ids].sort(cmp);
  for (const sizes of [[1], [2, 5], [100], [4, 1, 3]]) {
    assert.deepEqual(await walk((limit, cursor) => bob.teams.members({ teamId: big.id, limit, ...(cursor ? { cursor } : {}) }), (p) => p.members.map((m) => m.memberId), sizes), expected);
  }
  const p = await bob.teams.members({ teamId: big.id, limit: 2 });
  await assert.rejects(bob.teams.members({ teamId: other.id, cursor: p.nextCursor! }), code('validation_failed'));
});
