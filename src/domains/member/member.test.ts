// Tests the member domain's aggregate bounds on the real server (SQLite, or PostgreSQL via the suites runner): a
// workspace holds at most MEMBERS_MAX current members and CHANNELS_MAX channels, and a member opens at most DMS_OPENED_MAX
// DMs; past them nothing is created; a removal stops the removed members' schedules, live workflow runs and triggers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../test-server.js';
import { CHANNELS_MAX, DMS_OPENED_MAX } from '../channel/contract.js';
import { MEMBERS_MAX } from './contract.js';
import { NUMBERED_ID_RE } from '../../shared/ids.js';

let t: TestServer;
let peer: { id: string; credential: string };
let other: { id: string; credential: string };
before(async () => {
  t = await startTestServer();
  // Created before the member test fills the workspace.
  const mk = async (name: string) => ((r) => ({ id: r.agent.id, credential: r.credential }))(await t.owner.members.createAgent({ name }));
  peer = await mk('dm-peer');
  other = await mk('dm-other');
});
after(async () => t.stop());

const code = (c: string) => (e: unknown) => (e as { code?: string }).code === c;
const refused = (re: RegExp) => (e: unknown) => (e as { code?: string }).code === 'validation_failed' && re.test((e as Error).message);
const count = async (sql: string) => Number((await t.querySql<{ n: number }>(sql))[0]?.n);
/** Fills a table with `n` rows in one statement (a recursive series; the same SQL on both engines). */
const fill = (n: number, insert: string) => t.runSql(`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?) ${insert}`, [n]);

test('a member name is one line of visible text: control characters, newlines and bidi overrides are refused and nothing is stored', async () => {
  const before = await count('SELECT COUNT(*) AS n FROM members');
  for (const name of ['bot\u001b[31m', 'two\nlines', 'evil\u202eexe', 'del\u007f', 'sep\u2028x', 'c1\u009b']) {
    await assert.rejects(t.owner.members.createAgent({ name }), refused(/name must be one line without control/), JSON.stringify(name));
    await assert.rejects(t.owner.members.invite({ name }), refused(/name must be one line without control/), JSON.stringify(name));
  }
  assert.equal(await count('SELECT COUNT(*) AS n FROM members'), before);
  const ok = await t.owner.members.createAgent({ name: 'Zoë-Ng' });
  assert.equal(ok.agent.name, 'Zoë-Ng');
  await t.owner.members.remove({ memberId: ok.agent.id });
});

test('every request reads its credential anew: a rename, a rotated credential or a removal written by another server process shows on the very next call', async () => {
  const denied = (e: unknown) => (e as { code?: string }).code === 'denied';
  const a = await t.owner.members.createAgent({ name: 'fresh-reads' });
  const b = await t.owner.members.createAgent({ name: 'fresh-reads-2' });
  const api = t.client.as(a.credential);
  assert.equal((await api.members.me()).name, 'fresh-reads');
  // /v1/me answers from the row its own request was authenticated with: never an older one.
  await t.runSql('UPDATE members SET name = ? WHERE id = ?', ['renamed-elsewhere', a.agent.id]);
  assert.equal((await api.members.me()).name, 'renamed-elsewhere');
  await t.runSql('UPDATE members SET credential_hash = ? WHERE id = ?', [Buffer.alloc(32, 7), a.agent.id]);
  await assert.rejects(api.members.me(), denied);
  await assert.rejects(api.channels.list(), denied);
  const apiB = t.client.as(b.credential);
  assert.equal((await apiB.members.me()).id, b.agent.id);
  await t.runSql('UPDATE members SET removed_at = 1 WHERE id = ?', [b.agent.id]);
  await assert.rejects(apiB.members.me(), denied);
  await t.owner.members.remove({ memberId: a.agent.id });
});

const taken = (e: unknown) => (e as { code?: string }).code === 'conflict' && /is taken in this workspace/.test((e as Error).message);

test('a name is unique per workspace across kinds, ignoring case, NFKC forms, width and look-alike letters; a refused name stores nothing', async () => {
  const before = await count('SELECT COUNT(*) AS n FROM members');
  // The owner is the Human "Owner": an agent (created or renamed) or an invited person never gets a name that reads the same.
  const lookalikes = ['Owner', 'owner', 'OWNER', '\uff2f\uff57\uff4e\uff45\uff52', '0wner', 'Οwner'.replace('Ο', 'O')];
  for (const name of lookalikes) {
    await assert.rejects(t.owner.members.createAgent({ name }), taken, JSON.stringify(name));
    await assert.rejects(t.owner.members.invite({ name }), taken, JSON.stringify(name));
  }
  assert.equal(await count('SELECT COUNT(*) AS n FROM members'), before);
  assert.equal(await count('SELECT COUNT(*) AS n FROM invites'), 0);
  // NFC vs NFD, ligatures and the Kelvin sign fold to one name too.
  const zoe = await t.owner.members.createAgent({ name: 'Zo\u00eb-fix' });
  for (const name of ['Zoe\u0308-fix', 'ZOË-FIX', 'Zoë-\ufb01x']) await assert.rejects(t.owner.members.createAgent({ name }), taken, JSON.stringify(name));
  const kelvin = await t.owner.members.createAgent({ name: 'Kay' });
  await assert.rejects(t.owner.members.createAgent({ name: '\u212aay' }), taken);
  // A rename onto another member's name (a Human's here) is refused and changes nothing; a member keeps its own name in another case.
  await assert.rejects(t.owner.members.renameAgent({ memberId: kelvin.agent.id, name: 'ｏｗｎｅｒ' }), taken);
  await assert.rejects(t.owner.members.renameAgent({ memberId: kelvin.agent.id, name: 'zoë-fix' }), taken);
  assert.equal((await t.owner.members.list()).find((m) => m.id === kelvin.agent.id)?.name, 'Kay');
  assert.equal((await t.owner.members.renameAgent({ memberId: kelvin.agent.id, name: 'KAY' })).name, 'KAY');
  // An invite reserves nothing: a name taken after the invite was made refuses the redemption, which stores nothing and leaves the invite unused.
  const invite = await t.owner.members.invite({ name: 'Grace' });
  const grace = await t.owner.members.createAgent({ name: 'grace' });
  await assert.rejects(t.client.join(invite.code), taken);
  assert.equal(await count("SELECT COUNT(*) AS n FROM members WHERE kind = 'human'"), 1);
  assert.equal(await count('SELECT COUNT(*) AS n FROM invites WHERE used_by IS NOT NULL'), 0);
  // A removed member's name stays taken (its old messages keep naming it): the invite still does not redeem.
  await t.owner.members.remove({ memberId: grace.agent.id });
  await assert.rejects(t.client.join(invite.code), taken);
  assert.equal(await count('SELECT COUNT(*) AS n FROM invites WHERE used_by IS NOT NULL'), 0);
  for (const id of [zoe.agent.id, kelvin.agent.id]) await t.owner.members.remove({ memberId: id });
});

test('racing creates and renames onto one name (in different spellings) end in exactly one holder; the others are typed conflicts', async () => {
  const spellings = ['Racer', 'racer', 'RACER', '\uff32acer', 'rAcer', 'RACEr'];
  const spare = await t.owner.members.createAgent({ name: 'spare' });
  const results = await Promise.allSettled([...spellings.map((name) => t.owner.members.createAgent({ name })), t.owner.members.renameAgent({ memberId: spare.agent.id, name: 'rAcEr' })]);
  const won = results.filter((r) => r.status === 'fulfilled');
  assert.equal(won.length, 1, JSON.stringify(results.map((r) => r.status)));
  for (const r of results) if (r.status === 'rejected') assert.equal((r.reason as { code?: string }).code, 'conflict');
  const holders = (await t.owner.members.list()).filter((m) => m.name.normalize('NFKC').toLowerCase() === 'racer');
  assert.equal(holders.length, 1);
  for (const m of holders) if (m.id !== spare.agent.id) await t.owner.members.remove({ memberId: m.id });
  await t.owner.members.remove({ memberId: spare.agent.id });
});

test('members that share a name from before names were unique (rows without a name key) still block that name; renaming one frees nothing else', async () => {
  const hash = t.db.startsWith('postgres') ? "decode(md5(id), 'hex')" : 'randomblob(32)';
  for (const [id, name] of [['agt_olddup1', 'Twin'], ['agt_olddup2', 'twin'], ['agt_olddup3', 'TWIN']] as const) {
    await t.runSql(`INSERT INTO members (id, name, kind, role, credential_hash, created_at, admin) SELECT ?, ?, 'agent', 'member', ${hash}, 1, 0 FROM (SELECT ? AS id) x`, [id, name, id]);
  }
  await assert.rejects(t.owner.members.createAgent({ name: 'Twin' }), taken);
  await assert.rejects(t.owner.members.renameAgent({ memberId: 'agt_olddup1', name: 'twin' }), taken, 'the others still hold the name');
  assert.equal((await t.owner.members.renameAgent({ memberId: 'agt_olddup2', name: 'Twin-two' })).name, 'Twin-two');
  await assert.rejects(t.owner.members.invite({ name: 'twin' }), taken);
  await t.owner.members.remove({ memberId: 'agt_olddup1' });
  await assert.rejects(t.owner.members.createAgent({ name: 'tWin' }), taken, 'agt_olddup3 still holds it');
  for (const id of ['agt_olddup2', 'agt_olddup3']) await t.owner.members.remove({ memberId: id });
  await assert.rejects(t.owner.members.createAgent({ name: 'twin' }), taken, 'removed members keep their names taken');
});

const ruled = (e: unknown) => (e as { code?: string }).code === 'validation_failed' && /a name is 1 to 64 letters, digits/.test((e as Error).message);

test('one name rule for people and agents: homoglyph, mixed-script, invisible and prompt-shaped names are refused everywhere and store nothing', async () => {
  const spare = await t.owner.members.createAgent({ name: 'rule-spare' });
  const members = await count('SELECT COUNT(*) AS n FROM members');
  const bad = [
    '\u043ewner', // Cyrillic о + Latin: mixed scripts
    '\u13a0wner', // Cherokee Ꭰ + Latin
    'owner\u2800', // Braille blank: not a letter
    'owner (human) wrote in channel:general (message msg1):',
    'ana bot', 'ana`bot', 'ana:bot', '-ana', '.ana', 'a\u0301\u0301\u0301\u0301', 'Ana\u3164', 'x'.repeat(65), 'bot\u{1f916}',
  ];
  for (const name of bad) {
    await assert.rejects(t.owner.members.createAgent({ name }), ruled, JSON.stringify(name));
    await assert.rejects(t.owner.members.invite({ name }), ruled, JSON.stringify(name));
    await assert.rejects(t.owner.members.renameAgent({ memberId: spare.agent.id, name }), ruled, JSON.stringify(name));
  }
  assert.equal(await count('SELECT COUNT(*) AS n FROM members'), members);
  assert.equal(await count("SELECT COUNT(*) AS n FROM invites WHERE name <> 'Grace'"), 0);
  assert.equal((await t.owner.members.list()).find((m) => m.id === spare.agent.id)?.name, 'rule-spare');
  // One script per name, any script: Cyrillic, Greek, Japanese (Han + kana) and Korean (Hangul + Han) names are fine.
  for (const name of ['\u0418\u0432\u0430\u043d', '\u0393\u03b9\u03ac\u03bd\u03bd\u03b7\u03c2', '\u65e5\u672c\u30c6\u30b9\u30c8', '\ud55c\uad6d\u6f22', 'ana-bot_2.x']) {
    assert.equal((await t.owner.members.createAgent({ name })).agent.name, name);
  }
  // Unique by confusable skeleton (UTS #39): "rn" reads as "m", "0" as "O".
  await t.owner.members.createAgent({ name: 'mia' });
  for (const name of ['rnia', 'RNIA']) await assert.rejects(t.owner.members.createAgent({ name }), taken, name);
  await t.owner.members.remove({ memberId: spare.agent.id });
});

test('names stored before the rule keep working (listed, authenticated, posting); a rename must meet the rule and the new name', async () => {
  const legacy = await t.owner.members.createAgent({ name: 'legacy-holder' });
  await t.runSql('UPDATE members SET name = ?, name_key = NULL, name_skeleton = NULL WHERE id = ?', ['Old Name (bot)', legacy.agent.id]);
  const api = t.client.as(legacy.credential);
  assert.equal((await api.members.me()).name, 'Old Name (bot)');
  await t.owner.channels.addMember({ channelId: 'general', memberId: legacy.agent.id });
  const msg = await api.messages.send({ target: 'channel:general', content: 'still here' });
  assert.equal(msg.author.name, 'Old Name (bot)');
  // A rename onto a name breaking the rule is refused; one meeting it is taken.
  await assert.rejects(t.owner.members.renameAgent({ memberId: legacy.agent.id, name: 'Old Name (bot2)' }), ruled);
  assert.equal((await t.owner.members.renameAgent({ memberId: legacy.agent.id, name: 'Old-Name' })).name, 'Old-Name');
  await t.owner.members.remove({ memberId: legacy.agent.id });
});

test("a removed member's name stays taken, and its old messages and tasks read with its id and a removed marker", async () => {
  const gone = await t.owner.members.createAgent({ name: 'leaver' });
  await t.owner.channels.addMember({ channelId: 'general', memberId: gone.agent.id });
  const api = t.client.as(gone.credential);
  const msg = await api.messages.send({ target: 'channel:general', content: 'written before removal' });
  const task = await api.tasks.create({ title: 'made before removal' });
  assert.equal(msg.author.name, 'leaver');
  await t.owner.members.remove({ memberId: gone.agent.id });
  for (const name of ['leaver', 'LEAVER', '1eaver']) {
    await assert.rejects(t.owner.members.createAgent({ name }), taken, name);
    await assert.rejects(t.owner.members.invite({ name }), taken, name);
  }
  const marked = `leaver (removed ${gone.agent.id})`;
  const page = await t.owner.messages.list({ target: 'channel:general', limit: 100 });
  assert.equal(page.messages.find((m) => m.id === msg.id)?.author.name, marked);
  assert.equal((await t.owner.tasks.get({ taskId: task.id })).creator.name, marked);
});

test('a removal stops what the removed own, in its transaction: schedules disabled (logged), live runs cancelled with their steps and approvals, triggers disabled (failed before: they kept posting as the removed)', async () => {
  const invite = await t.owner.members.invite({ name: 'Hana', role: 'admin' });
  const joined = await t.client.join(invite.code);
  const hana = t.client.as(joined.credential);
  const bot = await hana.members.createAgent({ name: 'hana-bot' });
  const botApi = t.client.as(bot.credential);
  const worker = await t.owner.members.createAgent({ name: 'cascade-worker' });
  const workerApi = t.client.as(worker.credential);
  const target = `task:${(await t.owner.tasks.create({ title: 'cascade' })).id}`;
  const sched = [await hana.schedules.create({ target, content: 'as hana', cron: '0 * * * *' }), await botApi.schedules.create({ target, content: 'as bot', cron: '0 * * * *' })];
  const publish = async (api: typeof hana, steps: { title: string; assignee: string }[]) => {
    const p = await api.workflows.createPlan({ name: 'p', steps });
    return api.workflows.publishPlan({ planId: p.id, revision: p.revision });
  };
  const work = await publish(botApi, [{ title: 'one', assignee: worker.agent.id }, { title: 'two', assignee: worker.agent.id }]);
  const agentRun = await botApi.workflows.startRun({ planId: work.id, target });
  const gateRun = await hana.workflows.startRun({ planId: (await publish(hana, [{ title: 'gate', assignee: 'approval' }])).id, target });
  const trigger = await botApi.workflows.createTrigger({ planId: work.id, name: 'nightly', target });
  const other = await t.owner.schedules.create({ target, content: 'as owner', cron: '0 * * * *' });

  assert.deepEqual((await t.owner.members.remove({ memberId: joined.member.id })).removed.sort(), [joined.member.id, bot.agent.id].sort());
  const state = async (id: string) => ((r) => [Number(r!.enabled), r!.next_run_at === null])((await t.querySql<{ enabled: number; next_run_at: number | null }>('SELECT enabled, next_run_at FROM scheduled_messages WHERE id = ?', [id]))[0]);
  for (const s of sched) assert.deepEqual(await state(s.id), [0, true]);
  assert.deepEqual(await state(other.id), [1, false], 'only the removed members\' schedules stop');
  const logged = await t.querySql<{ schedule_id: string; status: string; actor_id: string }>("SELECT schedule_id, status, actor_id FROM schedule_runs WHERE schedule_id IN (?, ?) ORDER BY schedule_id", sched.map((s) => s.id));
  assert.deepEqual(logged.map((r) => [r.status, r.actor_id]), [['disabled', t.ownerId], ['disabled', t.ownerId]]);
  for (const run of [agentRun, gateRun]) {
    const detail = await t.owner.workflows.showRun({ runId: run.id });
    assert.equal(detail.status, 'cancelled');
    assert.ok(detail.steps.every((s) => s.status === 'cancelled' || s.status === 'pending'), JSON.stringify(detail.steps.map((s) => s.status)));
    const logs = (await t.owner.workflows.runLogs({ runId: run.id, limit: 100 })).logs;
    assert.equal(logs.at(-1)?.event, 'cancelled');
  }
  assert.deepEqual(await t.querySql("SELECT status FROM approvals WHERE subject LIKE 'step:%' AND requested_by = ?", [joined.member.id]), [{ status: 'cancelled' }]);
  // The cancelled run delivers no further step, and the disabled trigger starts no run.
  const step = (await t.owner.workflows.showRun({ runId: agentRun.id })).steps[0]!;
  await assert.rejects(workerApi.workflows.completeStep({ stepId: step.id }), code('conflict'));
  assert.equal((await t.owner.workflows.showRun({ runId: agentRun.id })).steps[1]!.status, 'pending');
  assert.equal((await t.owner.workflows.showTrigger({ triggerId: trigger.id })).status, 'disabled');
  await assert.rejects(t.owner.workflows.startRun({ triggerId: trigger.id }), code('conflict'));
});

test(`a workspace holds at most ${MEMBERS_MAX} current members: a new agent or an invited person is refused, the invite stays unused, and a removal makes room`, async () => {
  const hash = t.db.startsWith('postgres') ? "decode(md5('f' || i), 'hex')" : 'randomblob(32)';
  const present = await count('SELECT COUNT(*) AS n FROM members WHERE removed_at IS NULL');
  await fill(MEMBERS_MAX - present, `INSERT INTO members (id, name, kind, role, credential_hash, created_at, admin) SELECT 'agt_fill' || i, 'fill' || i, 'agent', 'member', ${hash}, 1, 0 FROM s`);
  assert.equal(await count('SELECT COUNT(*) AS n FROM members WHERE removed_at IS NULL'), MEMBERS_MAX);
  await assert.rejects(t.owner.members.createAgent({ name: 'one-too-many' }), refused(/at most 10000 members/));
  const invite = await t.owner.members.invite({ name: 'Late' });
  await assert.rejects(t.client.join(invite.code), refused(/at most 10000 members/));
  assert.equal(await count(`SELECT COUNT(*) AS n FROM invites WHERE used_by IS NOT NULL AND id = '${invite.inviteId}'`), 0);
  assert.equal(await count('SELECT COUNT(*) AS n FROM members WHERE removed_at IS NULL'), MEMBERS_MAX);
  await t.owner.members.remove({ memberId: 'agt_fill1' });
  const joined = (await t.client.join(invite.code)).member;
  assert.equal(joined.name, 'Late');
  // A joined person gets a numbered id like the owner's and the agents' (it used to be mem_ + 16 base64url characters).
  assert.match(joined.id, NUMBERED_ID_RE);
});

test(`a workspace holds at most ${CHANNELS_MAX} channels`, async () => {
  const present = await count('SELECT COUNT(*) AS n FROM channels');
  await fill(CHANNELS_MAX - present, "INSERT INTO channels (id, name, created_at) SELECT 'fill-' || i, 'fill', 1 FROM s");
  await assert.rejects(t.owner.channels.create({ id: 'one-too-many' }), refused(/at most 1000 channels/));
  assert.equal(await count('SELECT COUNT(*) AS n FROM channels'), CHANNELS_MAX);
});

test(`a member opens at most ${DMS_OPENED_MAX} DMs; a DM it already has still opens, and other members are not limited by it`, async () => {
  const known = await t.owner.channels.openDm({ memberIds: [peer.id] });
  const mine = await count(`SELECT COUNT(*) AS n FROM dms WHERE created_by = '${t.ownerId}'`);
  await fill(DMS_OPENED_MAX - mine, `INSERT INTO dms (id, member_key, created_at, created_by) SELECT 'dm_fill' || i, 'fill' || i, 1, '${t.ownerId}' FROM s`);
  const before = await count('SELECT COUNT(*) AS n FROM dms');
  await assert.rejects(t.owner.channels.openDm({ memberIds: [other.id] }), refused(/at most 10000 DMs/));
  assert.equal(await count('SELECT COUNT(*) AS n FROM dms'), before, 'the refused open stored nothing');
  assert.equal((await t.owner.channels.openDm({ memberIds: [peer.id] })).id, known.id, 'an existing DM still opens');
  const theirs = await t.client.as(other.credential).channels.openDm({ memberIds: [peer.id] });
  assert.deepEqual(theirs.memberIds, [peer.id, other.id].sort());
});
