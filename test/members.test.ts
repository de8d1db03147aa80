// End-to-end member commands against a standalone https server with a private CA: the invite's join command run as printed, invite ls/revoke/--expires, roles, an admin adding agents, a removed member's daemon status.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, TestDaemon, cliJson } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'agentteam-members-'));
const anaDir = mkdtempSync(join(tmpdir(), 'agentteam-ana-machine-'));
let server: ChildProcess | undefined;
const owner = new TestDaemon();
const ana = new TestDaemon();
let urls: string[];
const cert = join(dir, 'team-ca.pem');

before(async () => {
  const key = join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
  const db = join(dir, 'team.db');
  server = spawn(process.execPath, [BIN, 'server', 'start', '--port', '0', '--db', `sqlite:${db}`, '--tls-cert', cert, '--tls-key', key], { stdio: ['ignore', 'pipe', 'pipe'] });
  const { url, serverId } = await new Promise<{ url: string; serverId: string }>((res, rej) => {
    let buf = '';
    server!.stdout!.setEncoding('utf8').on('data', (c: string) => {
      buf += c;
      if (buf.includes('\n')) res(JSON.parse(buf.split('\n')[0]!));
    });
    server!.once('exit', (code) => rej(new Error(`server exited ${code}`)));
  });
  urls = [url, `https://localhost:${new URL(url).port}`];
  const admin = readFileSync(`${db}.admin-token`, 'utf8').trim();
  const start = await owner.run(['daemon', 'start', '--server-url', urls.join(','), '--server-id', serverId, '--server-ca', cert], { env: { AGENTTEAM_SERVER_ADMIN_TOKEN: admin } });
  assert.equal(start.code, 0, start.stderr);
  owner.pid = cliJson(start).pid;
});
after(async () => {
  await owner.dispose();
  await ana.dispose();
  server?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
  rmSync(anaDir, { recursive: true, force: true });
});

const invites = async (d: TestDaemon) => cliJson(await d.run(['member', 'invite', 'ls', '--json'])).invites as Array<Record<string, string>>;

test('member invite prints the exact join command (every server URL, the private CA to copy); run as printed on the other machine, it joins', async () => {
  const r = await owner.run(['member', 'invite', '--name', 'Ana', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const inv = cliJson(r);
  assert.deepEqual(inv.serverUrls, urls);
  assert.equal(inv.serverCaFile, cert);
  assert.equal(inv.command, `agentteam init --server-url ${urls.join(',')} --server-ca team-ca.pem --invite ${inv.code}`);
  // On a terminal the same, as text: the command and the file to copy.
  const tty = spawnSync('script', ['-qec', `${process.execPath} ${BIN} --home ${owner.home} member invite --name Tty-Guest --expires 1h`, '/dev/null'], { encoding: 'utf8' });
  assert.match(tty.stdout, /on their machine:\r?\n {2}agentteam init --server-url \S+,\S+ --server-ca team-ca\.pem --invite ati_\S+/);
  assert.match(tty.stdout, new RegExp(`copy ${cert.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(this server's CA\\) to their machine`));

  copyFileSync(cert, join(anaDir, 'team-ca.pem'));
  const [bin, ...args] = (inv.command as string).split(' ');
  assert.equal(bin, 'agentteam');
  const joined = await ana.run(args, { cwd: anaDir });
  assert.equal(joined.code, 0, joined.stderr);
  ana.pid = cliJson(joined).pid;
  assert.equal(cliJson(await ana.run(['daemon', 'status'])).healthy, true);
});

test('invite ls shows status and never the code; revoke kills a code; --expires is set or refused clearly', async () => {
  const bo = cliJson(await owner.run(['member', 'invite', '--name', 'Bo', '--expires', '24h', '--json']));
  const listed = await invites(owner);
  const row = listed.find((i) => i.id === bo.inviteId)!;
  assert.equal(Date.parse(row.expiresAt!) - Date.parse(row.createdAt!), 24 * 3600_000);
  assert.equal(row.status, 'open');
  assert.equal(listed.find((i) => i.name === 'Ana')?.status, 'used');
  const raw = (await owner.run(['member', 'invite', 'ls', '--json'])).stdout;
  assert.ok(!raw.includes(bo.code) && !raw.includes('ati_'), 'no invite code in the list');

  const rev = await owner.run(['member', 'invite', 'revoke', bo.inviteId]);
  assert.equal(rev.code, 0, rev.stderr);
  assert.equal(cliJson(rev).status, 'revoked');
  const late = await new TestDaemon().run(['init', '--server-url', urls.join(','), '--server-ca', cert, '--invite', bo.code]);
  assert.notEqual(late.code, 0);
  assert.match(late.stderr, /this invite code is not valid/);

  const before = (await invites(owner)).length;
  for (const bad of ['31d', '24x', '0h', 'soon']) {
    const r = await owner.run(['member', 'invite', '--name', 'Never', '--expires', bad]);
    assert.equal(r.code, 2, `${bad}: ${r.stderr}`);
    assert.match(r.stderr, /--expires must be a whole number of minutes, hours or days \(e\.g\. 30m, 24h, 7d\), at most 30d/);
  }
  // A person's name follows the one name rule: any single script is fine, a Cyrillic "о" in "owner" or a space is not.
  for (const bad of ['\u043ewner', 'Ana Lee']) {
    const r = await owner.run(['member', 'invite', '--name', bad]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /validation_failed: name (mixes scripts|holds a character outside the rule)/);
  }
  assert.equal((await invites(owner)).length, before, 'a refused invite stores nothing');
  const zoe = cliJson(await owner.run(['member', 'invite', '--name', 'Zo\u00eb', '--json']));
  assert.equal(zoe.name, 'Zo\u00eb');
  await owner.run(['member', 'invite', 'revoke', zoe.inviteId]);
});

test('roles: member role (owner only) shows in member ls; an admin adds an agent that answers; demotion kills its invites; a removed member is unhealthy', async () => {
  assert.match((await ana.run(['member', 'role', 'Ana', 'admin'])).stderr, /denied: only the workspace owner may change roles/);
  assert.match((await owner.run(['member', 'role', 'owner', 'member'])).stderr, /owner's role cannot change/);
  assert.equal((await owner.run(['member', 'role', 'Ana', 'boss'])).code, 1, 'the CLI refuses a role outside admin|member');
  const made = await owner.run(['member', 'role', 'Ana', 'admin']);
  assert.equal(made.code, 0, made.stderr);
  assert.equal(cliJson(made).role, 'admin');
  const roles = (cliJson(await ana.run(['member', 'ls'])) as Array<{ name: string; role: string }>).map((m) => [m.name, m.role]);
  assert.deepEqual(roles, [['owner', 'owner'], ['Ana', 'admin']]);
  const table = spawnSync('script', ['-qec', `${process.execPath} ${BIN} --home ${owner.home} member ls`, '/dev/null'], { encoding: 'utf8' });
  assert.match(table.stdout, /NAME\s+KIND\s+ROLE\s+ID\r?\nowner\s+human\s+owner\s+mem\d+\r?\nAna\s+human\s+admin\s+mem\d+/);

  // The admin adds an agent on her daemon; it answers a mention in #general with its own credential.
  const bot = await ana.run(['agent', 'add', '--name', 'anas-bot', '--', 'sh', '-c', 'cat >/dev/null; agentteam exec task create "{\\"title\\":\\"from anas-bot\\"}"']);
  assert.equal(bot.code, 0, bot.stderr);
  assert.equal((await owner.run(['message', 'post', '--target', 'channel:general', '@anas-bot make a task'])).code, 0);
  let turns: Array<{ outcome?: string }> = [];
  for (let i = 0; i < 100 && turns[0]?.outcome == null; i++) {
    await new Promise((r) => setTimeout(r, 200));
    turns = cliJson(await ana.run(['agent', 'logs', 'anas-bot', '--json'])).turns;
  }
  assert.equal(turns[0]?.outcome, 'ok', JSON.stringify(turns));

  const hers = cliJson(await ana.run(['member', 'invite', '--name', 'Guest-Of-Ana', '--json']));
  assert.equal((await owner.run(['member', 'role', 'Ana', 'member'])).code, 0);
  assert.equal((await invites(owner)).find((i) => i.id === hers.inviteId)?.status, 'revoked');
  assert.match((await ana.run(['member', 'invite', '--name', 'Another'])).stderr, /denied/);

  assert.equal((await owner.run(['member', 'rm', 'Ana'])).code, 0);
  const st = await ana.run(['daemon', 'status']);
  assert.equal(st.code, 1, st.stdout);
  const s = cliJson(st);
  assert.equal(s.healthy, false);
  assert.match(s.reason, /this member was removed from the workspace/);
  assert.equal(s.server.reachable, true);
  assert.equal(cliJson(await owner.run(['daemon', 'status'])).healthy, true);
});
