// End-to-end team mode on one machine: two people on two daemons share one workspace through two server processes on one PostgreSQL database, each as themself.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { TestDaemon, cliJson } from '../harness.js';
import { startCluster, type Cluster } from './cluster.js';
import { startServerProc, type ServerProc } from './server-proc.js';
import { serverClient } from '../../src/domains/registry.js';

let cluster: Cluster;
let db: string;
const procs: ServerProc[] = [];
const owner = new TestDaemon();
const ana = new TestDaemon();
let urls: string;
let serverId: string;

before(async () => {
  cluster = await startCluster();
  db = await cluster.createDatabase();
  const token = join(owner.home, 'team-admin.token');
  for (const n of ['a', 'b']) procs.push(await startServerProc(['--db', db, '--admin-token-file', token, '--log-file', join(owner.home, `srv-${n}.log`)], join(owner.home, `srv-${n}`)));
  urls = procs.map((p) => p.url).join(',');
  serverId = procs[0]!.serverId;
  const start = await owner.run(['daemon', 'start', '--server-url', urls, '--server-id', serverId], { env: { AGENTTEAM_SERVER_ADMIN_TOKEN: readFileSync(token, 'utf8').trim() } });
  assert.equal(start.code, 0, start.stderr);
  owner.pid = cliJson(start).pid;
});
after(async () => {
  await owner.dispose();
  await ana.dispose();
  await Promise.all(procs.map((p) => p.stop()));
  await cluster?.stop();
});

const credOf = (d: TestDaemon) => JSON.parse(readFileSync(join(d.home, 'owner.json'), 'utf8')) as { memberId: string; credential: string };

test('invite → join: a second person is a new Human member with their own credential; roles, DM privacy, unique agent names', async () => {
  const inv = await owner.run(['member', 'invite', '--name', 'Ana', '--json']);
  assert.equal(inv.code, 0, inv.stderr);
  const { code, role } = cliJson(inv);
  assert.equal(role, 'member');
  const joined = await ana.run(['init', '--server-url', urls, '--invite', code]);
  assert.equal(joined.code, 0, joined.stderr);
  ana.pid = cliJson(joined).pid;
  const again = await new TestDaemon().run(['init', '--server-url', urls, '--invite', code]);
  assert.notEqual(again.code, 0, 'an invite is used once');
  assert.match(again.stderr, /not valid/);

  const me = credOf(owner);
  const her = credOf(ana);
  assert.notEqual(me.memberId, her.memberId);
  assert.notEqual(me.credential, her.credential);
  const members = cliJson(await ana.run(['member', 'ls']));
  assert.deepEqual(members.map((m: { name: string; role: string; kind: string }) => [m.name, m.role, m.kind]), [['owner', 'owner', 'human'], ['Ana', 'member', 'human']]);

  // Role checks: a member may not invite or add agents; the owner may.
  const denied = await ana.run(['member', 'invite', '--name', 'Eve']);
  assert.equal(denied.code, 1);
  assert.match(denied.stderr, /denied/);
  assert.match((await ana.run(['agent', 'add', '--name', 'anas-bot'])).stderr, /denied/);
  const bot = await owner.addAgent('bot');
  const api = serverClient({ baseUrl: procs[0]!.url, fallbackUrls: [procs[1]!.url] });
  try {
    await assert.rejects(api.as(me.credential).members.createAgent({ name: 'bot' }), (e: unknown) => (e as { code?: string }).code === 'conflict', 'agent names are unique per workspace');
    // Each posts as themself; both read #general.
    assert.equal((await owner.run(['message', 'post', '--target', 'channel:general', 'hi from owner'])).code, 0);
    assert.equal((await ana.run(['message', 'post', '--target', 'channel:general', 'hi from Ana'])).code, 0);
    const general = cliJson(await ana.run(['message', 'ls', '--target', 'channel:general'])).messages as Array<{ content: string; author: { id: string } }>;
    assert.deepEqual(general.slice(0, 2).map((m) => [m.content, m.author.id]), [['hi from Ana', her.memberId], ['hi from owner', me.memberId]]);
    // A DM between the owner and the bot is private to them: Ana cannot read it, nor post in it.
    const dm = await api.as(me.credential).channels.openDm({ memberIds: [bot.id] });
    await api.as(me.credential).messages.send({ target: `dm:${dm.id}`, content: 'private' });
    const peek = await ana.run(['message', 'ls', '--target', `dm:${dm.id}`]);
    assert.equal(peek.code, 1);
    assert.match(peek.stderr, /not_found/);
    assert.doesNotMatch(peek.stdout + peek.stderr, /private/);
    // Ana's own DM with the owner is hers and the owner's only.
    const ours = await api.as(her.credential).channels.openDm({ memberIds: [me.memberId] });
    await api.as(her.credential).messages.send({ target: `dm:${ours.id}`, content: 'just us' });
    assert.equal(cliJson(await owner.run(['message', 'ls', '--target', `dm:${ours.id}`])).messages[0].content, 'just us');
  } finally {
    api.close();
  }

  // The agent's server credential never sits in a receipt: agent add is keyed, and its receipt is sealed.
  const botCred = (JSON.parse(readFileSync(join(owner.home, 'profiles', `${bot.id}.json`), 'utf8')) as { credential: string }).credential;
  const c = new pg.Client({ connectionString: db });
  await c.connect();
  try {
    const rows = (await c.query<{ response: string | null }>('SELECT response FROM idempotency_receipts')).rows;
    assert.ok(rows.length >= 1, 'keyed writes left receipts');
    for (const r of rows) assert.ok(!String(r.response).includes(botCred) && !/ats_|ati_|credential/.test(String(r.response)), 'no credential in any receipt');
  } finally {
    await c.end();
  }
});

test('attacks: one invite raced by two people on two server processes has one winner; a removed member and their agents are refused at once everywhere', async () => {
  const inv = cliJson(await owner.run(['member', 'invite', '--name', 'Bo', '--role', 'admin', '--json']));
  const a = serverClient({ baseUrl: procs[0]!.url });
  const b = serverClient({ baseUrl: procs[1]!.url });
  try {
    // Two people redeem the same code at once, one on each server process: exactly one becomes a member.
    const raced = await Promise.allSettled([a.join(inv.code), b.join(inv.code), a.join(inv.code), b.join(inv.code)]);
    const won = raced.filter((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ member: { id: string }; credential: string }>[];
    assert.equal(won.length, 1, `one winner: ${JSON.stringify(raced.map((r) => r.status))}`);
    for (const r of raced) if (r.status === 'rejected') assert.equal((r.reason as { code?: string }).code, 'denied');
    const bo = won[0]!.value;
    await assert.rejects(a.join(inv.code), (e: unknown) => (e as { code?: string }).code === 'denied', 'a used code stays used (replay)');

    // Bo (an admin) adds an agent; a plain member may not remove anyone; an admin may not remove the owner.
    const bosBot = await b.as(bo.credential).members.createAgent({ name: 'bos-bot' });
    const me = credOf(owner);
    const her = credOf(ana);
    await assert.rejects(a.as(her.credential).members.remove({ memberId: bo.member.id }), (e: unknown) => (e as { code?: string }).code === 'denied');
    await assert.rejects(a.as(bo.credential).members.remove({ memberId: me.memberId }), (e: unknown) => (e as { code?: string }).code === 'denied');
    assert.equal((await a.as(bosBot.credential).members.me()).id, bosBot.agent.id);

    // The owner removes Bo: Bo's and Bo's agent's credentials stop on both server processes at once.
    const rm = await owner.run(['member', 'rm', 'Bo']);
    assert.equal(rm.code, 0, rm.stderr);
    assert.deepEqual(cliJson(rm).removed.sort(), [bo.member.id, bosBot.agent.id].sort());
    for (const c of [a, b]) {
      for (const cred of [bo.credential, bosBot.credential]) {
        await assert.rejects(c.as(cred).members.me(), (e: unknown) => (e as { code?: string }).code === 'denied');
        await assert.rejects(c.as(cred).messages.send({ target: 'channel:general', content: 'still here?' }), (e: unknown) => (e as { code?: string }).code === 'denied');
      }
    }
    const names = cliJson(await owner.run(['member', 'ls'])).map((m: { name: string }) => m.name);
    assert.ok(!names.includes('Bo') && !names.includes('bos-bot'), JSON.stringify(names));
    // The removed member's history stays readable; the owner cannot be removed by anyone.
    assert.match((await owner.run(['member', 'rm', 'owner'])).stderr, /denied/);
  } finally {
    a.close();
    b.close();
  }
});

test('daemon restart keeps its server; failover to the second server process; status exits non-zero when the server is down', async () => {
  assert.equal((await ana.run(['daemon', 'stop'])).code, 0);
  const restart = await ana.run(['daemon', 'start']);
  assert.equal(restart.code, 0, restart.stderr);
  const s = cliJson(restart);
  ana.pid = s.pid;
  assert.equal(s.server.mode, 'remote', 'never a new embedded workspace');
  assert.equal(s.server.serverId, serverId);
  assert.equal(cliJson(await ana.run(['member', 'ls'])).length >= 2, true);

  await procs[0]!.stop(true); // kill -9 the first server process
  const ls = await ana.run(['message', 'ls', '--target', 'channel:general']);
  assert.equal(ls.code, 0, ls.stderr);
  assert.equal(cliJson(ls).messages.length >= 2, true);
  assert.equal((await ana.run(['message', 'post', '--target', 'channel:general', 'via the second process'])).code, 0);
  const st = await ana.run(['daemon', 'status']);
  assert.equal(st.code, 0, st.stdout);
  assert.equal(cliJson(st).server.url, procs[1]!.url);

  await procs[1]!.stop();
  const down = await ana.run(['daemon', 'status']);
  assert.equal(down.code, 1);
  const d = cliJson(down);
  assert.equal(d.healthy, false);
  assert.equal(d.server.reachable, false);
});
