// Tests the workspace domain on the real server (SQLite, or PostgreSQL via the suites runner): counts, the member directory's
// keyset walks in name ASC, memberId ASC with ties, kind and name filters bound into the cursor, and filter validation.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ServerApi } from '../../server-client/api.js';
import { startTestServer, type TestServer } from '../test-server.js';
import { newCompactId } from '../../shared/ids.js';
import type { WorkspaceMemberPage } from './contract.js';

let t: TestServer;
let alice: ServerApi;

before(async () => {
  t = await startTestServer();
  const a = await t.owner.members.createAgent({ name: 'alice' });
  alice = t.client.as(a.credential);
});
after(async () => t.stop());

const code = (c: string) => (e: unknown) => (e as { code?: string }).code === c;
const cmp = (x: string, y: string) => Buffer.compare(Buffer.from(x), Buffer.from(y));

async function walk(page: (limit: number, cursor?: string) => Promise<WorkspaceMemberPage>, sizes: number[]): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; ; i++) {
    const p = await page(sizes[i % sizes.length]!, cursor);
    out.push(...p.members.map((m) => m.memberId));
    assert.equal(p.hasMore, p.nextCursor !== undefined);
    if (!p.hasMore) return out;
    cursor = p.nextCursor;
  }
}

test('get returns the workspace id, a name and live counts', async () => {
  const before = await alice.workspace.get({});
  assert.match(before.id, /^wsp_/);
  assert.equal(typeof before.name, 'string');
  assert.deepEqual([before.counts.members, before.counts.humans, before.counts.agents], [2, 1, 1]);
  await t.owner.members.createAgent({ name: 'counted' });
  await alice.projects.create({ name: 'p' });
  await alice.teams.create({ handle: 'cnt', displayName: 'Counted' });
  const now = await alice.workspace.get({});
  assert.deepEqual([now.counts.members, now.counts.agents, now.counts.projects - before.counts.projects, now.counts.teams - before.counts.teams], [3, 2, 1, 1]);
  assert.ok(now.counts.channels >= 1, 'general exists');
});

test('member walks with random page sizes equal the full scan in name ASC, memberId ASC, with ties and filters', async () => {
  // Ties on name (4 values, two differing only in case, which sort apart in binary order). Names are unique per workspace
  // ignoring case since schema 28, so the ties are Humans from before it (rows without a name key, as an upgrade keeps them).
  const hash = t.db.startsWith('postgres') ? "decode(md5(?), 'hex')" : 'randomblob(32 + 0 * length(?))';
  for (let i = 0; i < 22; i++) {
    const id = newCompactId('mem');
    await t.runSql(`INSERT INTO members (id, name, kind, role, credential_hash, created_at, admin) VALUES (?, ?, 'human', 'member', ${hash}, ?, 0)`, [id, ['Bo', 'bo', 'Al', 'zed%'][i % 4]!, id, 1 + i]);
  }
  for (const name of ['Bo.agent', 'al.agent']) await t.owner.members.createAgent({ name });
  const all = (await alice.workspace.members({ limit: 100 })).members;
  assert.equal(all.length, (await alice.workspace.get({})).counts.members);
  const sorted = [...all].sort((a, b) => cmp(a.name, b.name) || cmp(a.memberId, b.memberId)).map((m) => m.memberId);
  assert.deepEqual(all.map((m) => m.memberId), sorted);
  const scan = (f: (m: (typeof all)[number]) => boolean) => all.filter(f).map((m) => m.memberId);
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 4 }), fc.constantFrom(undefined, 'human', 'agent'), fc.constantFrom(undefined, 'bo', 'L', '%'), async (sizes, kind, query) => {
      const got = await walk((limit, cursor) => alice.workspace.members({ limit, ...(cursor ? { cursor } : {}), ...(kind ? { kind } : {}), ...(query ? { query } : {}) }), sizes);
      assert.deepEqual(got, scan((m) => (!kind || m.kind === kind) && (!query || m.name.toLowerCase().includes(query.toLowerCase()))));
    }),
    { numRuns: 15 },
  );
  assert.deepEqual(scan((m) => m.name.includes('%')).length, 5, 'a % in the query matches itself only');
  const first = await alice.workspace.members({ limit: 2, kind: 'agent' });
  assert.equal(first.members.length, 2);
  assert.ok(first.members.every((m) => m.kind === 'agent'));
  await assert.rejects(alice.workspace.members({ limit: 2, kind: 'human', cursor: first.nextCursor! }), code('validation_failed'), 'the cursor is bound to its filter');
  await assert.rejects(alice.workspace.members({ cursor: 'garbage' }), code('validation_failed'));
});

test('each member shows its role: the owner, an admin who joined by invite, a plain member and agents', async () => {
  const admin = await t.client.join((await t.owner.members.invite({ name: 'Role-Admin', role: 'admin' })).code);
  const plain = await t.client.join((await t.owner.members.invite({ name: 'Role-Member' })).code);
  const roles = new Map<string, string>();
  for (let cursor: string | undefined, p; (p = await alice.workspace.members({ limit: 100, ...(cursor ? { cursor } : {}) })); cursor = p.nextCursor) {
    for (const m of p.members) roles.set(m.memberId, m.role);
    if (!p.hasMore) break;
  }
  assert.equal(roles.get(t.ownerId), 'owner');
  assert.equal(roles.get(admin.member.id), 'admin');
  assert.equal(roles.get(plain.member.id), 'member');
  assert.equal((await alice.workspace.members({ kind: 'agent', limit: 100 })).members.every((m) => m.role === 'member'), true);
});

test('bad filters and limits are typed validation failures', async () => {
  await assert.rejects(alice.workspace.members({ kind: 'robot' as 'agent' }), code('validation_failed'));
  await assert.rejects(alice.workspace.members({ query: 'x'.repeat(101) }), code('validation_failed'));
  await assert.rejects(alice.workspace.members({ limit: 101 }), code('validation_failed'));
  await assert.rejects(alice.workspace.members({ limit: 0 }), code('validation_failed'));
  assert.equal((await alice.workspace.members({})).members.length, 20, 'default page is 20');
});
