// Tests the member domain's aggregate bounds on the real server (SQLite, or PostgreSQL via the suites runner): a
// workspace holds at most MEMBERS_MAX current members and CHANNELS_MAX channels; past them nothing is created.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../server/test-helpers.js';
import { CHANNELS_MAX } from '../channel/contract.js';
import { MEMBERS_MAX } from './contract.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => t.stop());

const refused = (re: RegExp) => (e: unknown) => (e as { code?: string }).code === 'validation_failed' && re.test((e as Error).message);
const count = async (sql: string) => Number((await t.querySql<{ n: number }>(sql))[0]?.n);
/** Fills a table with `n` rows in one statement (a recursive series; the same SQL on both engines). */
const fill = (n: number, insert: string) => t.runSql(`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?) ${insert}`, [n]);

test(`a workspace holds at most ${MEMBERS_MAX} current members: a new agent or an invited person is refused, the invite stays unused, and a removal makes room`, async () => {
  const hash = t.db.startsWith('postgres') ? "decode(md5('f' || i), 'hex')" : 'randomblob(32)';
  const present = await count('SELECT COUNT(*) AS n FROM members WHERE removed_at IS NULL');
  await fill(MEMBERS_MAX - present, `INSERT INTO members (id, name, kind, role, credential_hash, created_at, admin) SELECT 'agt_fill' || i, 'fill' || i, 'agent', 'member', ${hash}, 1, 0 FROM s`);
  assert.equal(await count('SELECT COUNT(*) AS n FROM members WHERE removed_at IS NULL'), MEMBERS_MAX);
  await assert.rejects(t.owner.members.createAgent({ name: 'one-too-many' }), refused(/at most 10000 members/));
  const invite = await t.owner.members.invite({ name: 'Late' });
  await assert.rejects(t.client.join(invite.code), refused(/at most 10000 members/));
  assert.equal(await count('SELECT COUNT(*) AS n FROM invites WHERE used_by IS NOT NULL'), 0);
  assert.equal(await count('SELECT COUNT(*) AS n FROM members WHERE removed_at IS NULL'), MEMBERS_MAX);
  await t.owner.members.remove('agt_fill1');
  assert.equal((await t.client.join(invite.code)).member.name, 'Late');
});

test(`a workspace holds at most ${CHANNELS_MAX} channels`, async () => {
  const present = await count('SELECT COUNT(*) AS n FROM channels');
  await fill(CHANNELS_MAX - present, "INSERT INTO channels (id, name, created_at) SELECT 'fill-' || i, 'fill', 1 FROM s");
  await assert.rejects(t.owner.channels.create({ id: 'one-too-many' }), refused(/at most 1000 channels/));
  assert.equal(await count('SELECT COUNT(*) AS n FROM channels'), CHANNELS_MAX);
});
