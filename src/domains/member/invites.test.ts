// Tests invites and roles on the real server (SQLite, or PostgreSQL via the suites runner): list and revoke, settable expiry, an invite dies with its maker's removal or demotion, one answer for every dead code; roles only the owner changes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../test-server.js';
import type { ServerApi } from '../../server-client/api.js';
import { INVITES_OPEN_MAX } from './contract.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => t.stop());

const code = (c: string, re?: RegExp) => (e: unknown) => (e as { code?: string }).code === c && (!re || re.test((e as Error).message));
const UNKNOWN = /this invite code is not valid \(unknown, used or expired\)/;
const count = async (sql: string) => Number((await t.querySql<{ n: number }>(sql))[0]?.n);
/** A person who joined by invite, with their own server API. */
async function person(name: string, role: 'member' | 'admin' = 'member'): Promise<{ id: string; api: ServerApi }> {
  const j = await t.client.join((await t.owner.members.invite({ name, role })).code);
  return { id: j.member.id, api: t.client.as(j.credential) };
}
const unknownCode = `ati_${'A'.repeat(43)}`;

test('the unknown-code answer, for reference: a well-formed code that was never issued', async () => {
  await assert.rejects(t.client.join(unknownCode), code('denied', UNKNOWN));
});

test('invites are listed newest first, keyset-paged, with their status and never their code or its hash; revoking one kills its code', async () => {
  const a = await t.owner.members.invite({ name: 'List-A' });
  const b = await t.owner.members.invite({ name: 'List-B' });
  const c = await t.owner.members.invite({ name: 'List-C' });
  const first = await t.owner.members.invites({ limit: 2 });
  assert.deepEqual(first.invites.map((i) => i.id), [c.inviteId, b.inviteId]);
  assert.equal(first.hasMore, true);
  const rest = await t.owner.members.invites({ limit: 100, cursor: first.nextCursor! });
  assert.equal(rest.invites[0]?.id, a.inviteId);
  const all = [...first.invites, ...rest.invites];
  const text = JSON.stringify(all);
  for (const inv of [a, b, c]) assert.ok(!text.includes(inv.code) && !text.includes(inv.code.slice(4, 20)), 'no code in the list');
  const hashes = await t.querySql<{ h: Buffer }>('SELECT code_hash AS h FROM invites');
  for (const { h } of hashes) assert.ok(!text.includes(Buffer.from(h).toString('hex')) && !text.includes(Buffer.from(h).toString('base64url')));
  assert.deepEqual(Object.keys(all[0]!).sort(), ['createdAt', 'createdBy', 'expiresAt', 'id', 'name', 'role', 'status']);
  assert.ok(all.every((i) => i.status === 'open' && i.createdBy === t.ownerId));

  const revoked = await t.owner.members.revokeInvite({ inviteId: b.inviteId });
  assert.equal(revoked.status, 'revoked');
  assert.equal((await t.owner.members.revokeInvite({ inviteId: b.inviteId })).status, 'revoked', 'revoking twice changes nothing');
  await assert.rejects(t.client.join(b.code), code('denied', UNKNOWN), 'a revoked code answers like an unknown one');
  const joined = await t.client.join(a.code);
  assert.equal(joined.member.name, 'List-A');
  await assert.rejects(t.owner.members.revokeInvite({ inviteId: a.inviteId }), code('conflict', /already used/));
  await assert.rejects(t.owner.members.revokeInvite({ inviteId: 'inv_nope' }), code('not_found'));
  const statuses = new Map((await t.owner.members.invites({ limit: 100 })).invites.map((i) => [i.id, i.status]));
  assert.deepEqual([statuses.get(a.inviteId), statuses.get(b.inviteId), statuses.get(c.inviteId)], ['used', 'revoked', 'open']);
  // A plain member may neither list nor revoke.
  const plain = t.client.as(joined.credential);
  await assert.rejects(plain.members.invites({}), code('denied'));
  await assert.rejects(plain.members.revokeInvite({ inviteId: c.inviteId }), code('denied'));
  await t.owner.members.revokeInvite({ inviteId: c.inviteId });
});

test('expiry is settable in minutes, hours or days (default 7 days, at most 30); bad values are typed errors that store nothing', async () => {
  const span = (i: { createdAt: string; expiresAt: string }) => Date.parse(i.expiresAt) - Date.parse(i.createdAt);
  const made = { '24h': await t.owner.members.invite({ name: 'Exp-H', expires: '24h' }), '30m': await t.owner.members.invite({ name: 'Exp-M', expires: '30m' }), '30d': await t.owner.members.invite({ name: 'Exp-D', expires: '30d' }), none: await t.owner.members.invite({ name: 'Exp-None' }) };
  const listed = new Map((await t.owner.members.invites({ limit: 100 })).invites.map((i) => [i.id, i]));
  assert.equal(span(listed.get(made['24h'].inviteId)!), 24 * 3600_000);
  assert.equal(span(listed.get(made['30m'].inviteId)!), 30 * 60_000);
  assert.equal(span(listed.get(made['30d'].inviteId)!), 30 * 86_400_000);
  assert.equal(span(listed.get(made.none.inviteId)!), 7 * 86_400_000);
  const before = await count('SELECT COUNT(*) AS n FROM invites');
  for (const expires of ['31d', '721h', '0h', '24', 'h', '1w', '-1h', '1.5h', ' 24h', '99999999d']) {
    await assert.rejects(t.owner.members.invite({ name: 'Exp-Bad', expires }), code('validation_failed', /expires must be a whole number of minutes, hours or days/), expires);
  }
  assert.equal(await count('SELECT COUNT(*) AS n FROM invites'), before);
  // An expired code gets the unknown-code answer.
  await t.runSql('UPDATE invites SET expires_at = created_at WHERE id = ?', [made['30m'].inviteId]);
  await assert.rejects(t.client.join(made['30m'].code), code('denied', UNKNOWN));
  for (const inv of Object.values(made)) await t.owner.members.revokeInvite({ inviteId: inv.inviteId });
});

test("an admin's invites die with its removal: revoked in the removal, and refused at redemption even if a row escaped that", async () => {
  const admin = await person('Inv-Admin', 'admin');
  const one = await admin.api.members.invite({ name: 'From-Admin-1' });
  const two = await admin.api.members.invite({ name: 'From-Admin-2' });
  await t.owner.members.remove({ memberId: admin.id });
  const rows = await t.querySql<{ id: string; revoked_at: number | null }>(`SELECT id, revoked_at FROM invites WHERE created_by = '${admin.id}' ORDER BY id`);
  assert.equal(rows.length, 2);
  assert.ok(rows.every((r) => r.revoked_at !== null), 'revoked in the removal transaction');
  await assert.rejects(t.client.join(one.code), code('denied', UNKNOWN));
  // An invite from before the revoke-on-removal rule (left open by an older server): the maker is checked at redemption.
  await t.runSql('UPDATE invites SET revoked_at = NULL WHERE id = ?', [two.inviteId]);
  await assert.rejects(t.client.join(two.code), code('denied', UNKNOWN), 'the maker is checked at redemption too');
  assert.equal(await count("SELECT COUNT(*) AS n FROM members WHERE name LIKE 'From-Admin%'"), 0);
});

test('roles: only the owner changes them; the owner stays owner; a demoted admin loses its invites and the admin rights at once', async () => {
  const admin = await person('Role-Admin2', 'admin');
  const plain = await person('Role-Plain');
  const agent = await t.owner.members.createAgent({ name: 'role-agent' });
  await assert.rejects(admin.api.members.setRole({ memberId: plain.id, role: 'admin' }), code('denied', /only the workspace owner may change roles/));
  await assert.rejects(plain.api.members.setRole({ memberId: plain.id, role: 'admin' }), code('denied'));
  await assert.rejects(t.owner.members.setRole({ memberId: t.ownerId, role: 'member' }), code('denied', /owner's role cannot change/));
  await assert.rejects(t.owner.members.setRole({ memberId: agent.agent.id, role: 'admin' }), code('validation_failed', /only a person has a role/));
  await assert.rejects(t.owner.members.setRole({ memberId: 'mem_nope', role: 'admin' }), code('not_found'));

  const inv = await admin.api.members.invite({ name: 'Admin-Guest' });
  // An admin may add agents, end to end: the agent works with its own credential.
  const made = await admin.api.members.createAgent({ name: 'admins-agent' });
  assert.equal((await t.client.as(made.credential).members.me()).id, made.agent.id);
  assert.equal((await t.owner.members.setRole({ memberId: admin.id, role: 'member' })).role, 'member');
  assert.equal((await t.owner.members.list()).find((m) => m.id === admin.id)?.role, 'member');
  await assert.rejects(t.client.join(inv.code), code('denied', UNKNOWN), 'demotion killed the invite');
  await assert.rejects(admin.api.members.invite({ name: 'Too-Late' }), code('denied'));
  await assert.rejects(admin.api.members.createAgent({ name: 'too-late-agent' }), code('denied'));

  assert.equal((await t.owner.members.setRole({ memberId: plain.id, role: 'admin' })).role, 'admin');
  const promoted = await plain.api.members.createAgent({ name: 'promoted-agent' });
  assert.equal(promoted.agent.kind, 'agent');
  assert.equal((await plain.api.members.invites({ limit: 1 })).invites.length, 1);
});

test(`a member holds at most ${INVITES_OPEN_MAX} open invites; dead ones do not count and are cleared`, async () => {
  const admin = await person('Cap-Admin', 'admin');
  const made: string[] = [];
  for (let i = 0; i < INVITES_OPEN_MAX; i++) made.push((await admin.api.members.invite({ name: `cap${i}` })).inviteId);
  await assert.rejects(admin.api.members.invite({ name: 'cap-over' }), code('validation_failed', /at most 100 open invites/));
  await admin.api.members.revokeInvite({ inviteId: made[0]! });
  await admin.api.members.invite({ name: 'cap-after' });
  assert.equal(await count(`SELECT COUNT(*) AS n FROM invites WHERE created_by = '${admin.id}'`), INVITES_OPEN_MAX, 'the revoked one was cleared');
});
