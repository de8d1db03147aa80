// Tests the profile domain on the real server (SQLite, or PostgreSQL via the suites runner): public reads, own-profile edits,
// every denial of editing another member (agent and owner alike), byte bounds, and idempotent replays.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerApi } from '../../server-client/api.js';
import { startTestServer, type TestServer } from '../test-server.js';

let t: TestServer;
let alice: ServerApi;
let bob: ServerApi;
let bobCredential: string;
let aliceId: string;

before(async () => {
  t = await startTestServer();
  const a = await t.owner.members.createAgent({ name: 'alice' });
  const b = await t.owner.members.createAgent({ name: 'bob' });
  alice = t.client.as(a.credential);
  bob = t.client.as(b.credential);
  bobCredential = b.credential;
  aliceId = a.agent.id;
});
after(async () => t.stop());

const code = (c: string) => (e: unknown) => (e as { code?: string }).code === c;

test('a fresh profile defaults to the member name; get without memberId is the caller; any member reads any profile', async () => {
  const own = await alice.profiles.mine({});
  assert.deepEqual([own.memberId, own.displayName, own.bio, own.status, own.revision, own.updatedAt], [aliceId, 'alice', '', '', 0, null]);
  assert.deepEqual(await bob.profiles.get({ memberId: aliceId }), own);
  await assert.rejects(bob.profiles.get({ memberId: 'agt_missing' }), code('not_found'));
});

test('a member edits only their own profile; editing another is denied for agents and the owner and changes nothing', async () => {
  const p = await alice.profiles.updateMine({ displayName: 'Alice A.', status: 'on release duty' });
  assert.deepEqual([p.displayName, p.status, p.bio, p.revision], ['Alice A.', 'on release duty', '', 1]);
  const p2 = await alice.profiles.update({ memberId: aliceId, bio: 'Writes the release notes.' });
  assert.deepEqual([p2.displayName, p2.bio, p2.revision], ['Alice A.', 'Writes the release notes.', 2]);
  await assert.rejects(bob.profiles.update({ memberId: aliceId, status: 'hijacked' }), code('denied'));
  await assert.rejects(t.owner.profiles.update({ memberId: aliceId, displayName: 'renamed' }), code('denied'));
  assert.deepEqual(await bob.profiles.get({ memberId: aliceId }), p2, 'denied calls changed nothing');
  assert.equal((await bob.profiles.mine({})).revision, 0);
});

test('bad input is a typed validation failure and changes nothing', async () => {
  const before = await bob.profiles.mine({});
  await assert.rejects(bob.profiles.updateMine({}), code('validation_failed'));
  await assert.rejects(bob.profiles.updateMine({ displayName: '' }), code('validation_failed'));
  await assert.rejects(bob.profiles.updateMine({ displayName: '   ' }), code('validation_failed'));
  await assert.rejects(bob.profiles.updateMine({ bio: 'x'.repeat(1001) }), code('validation_failed'));
  await assert.rejects(bob.profiles.updateMine({ status: 's'.repeat(101) }), code('validation_failed'));
  // 100 characters, but each serializes to 6 bytes (\u0001): over the 400-byte bound.
  await assert.rejects(bob.profiles.updateMine({ status: '\u0001'.repeat(100) }), code('validation_failed'));
  // The typed client sends only declared fields: an unknown one is refused by the server's strict body.
  const raw = await fetch(`${t.server.url}/v1/profile`, { method: 'PATCH', headers: { authorization: `Bearer ${bobCredential}`, 'content-type': 'application/json' }, body: JSON.stringify({ status: 'x', color: 'red' }) });
  assert.equal(raw.status, 422);
  assert.equal(((await raw.json()) as { error?: { code?: string } }).error?.code, 'validation_failed');
  assert.deepEqual(await bob.profiles.mine({}), before);
  assert.equal((await bob.profiles.updateMine({ bio: '€'.repeat(1000) })).bio.length, 1000, '3000 bytes of UTF-8 fit the 4000-byte bound');
});

test('an idempotency key replays the same update; a different body under the key is idempotency_conflict', async () => {
  const a = await alice.profiles.updateMine({ status: 'keyed' }, { idempotencyKey: 'prof-k1' });
  const b = await alice.profiles.updateMine({ status: 'keyed' }, { idempotencyKey: 'prof-k1' });
  assert.deepEqual(b, a);
  assert.equal((await alice.profiles.mine({})).revision, a.revision, 'the replay applied nothing');
  await assert.rejects(alice.profiles.updateMine({ status: 'other' }, { idempotencyKey: 'prof-k1' }), code('idempotency_conflict'));
});
