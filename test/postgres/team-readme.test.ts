// End-to-end: the README's team section run as written: PostgreSQL with the URL in a 0600 env file, two https server processes, owner init, invite, join, agents, DMs.
// Where this differs from the README, and why: ephemeral ports on 127.0.0.1 for 7700/7701 on 0.0.0.0 (one machine),
// `localhost` for team.example.com, `command` agents (test/fixtures/turn-agent.mjs) for `claude`, the servers run as
// this user (no systemd), and DMs are opened and posted through the server API with each person's own credential
// (`dm open --with` and `--target dm:NAME` are not on this branch). Ana is a second OS user when running as root
// (CI), created here with useradd; otherwise a second home of this user.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { MessageDto } from '../../src/domains/message/contract.js';
import { BIN, TestDaemon, cliJson, type RunResult } from '../harness.js';
import { AGENT, waitFor } from '../turns-kit.js';
import { startCluster, type Cluster } from './cluster.js';
import { startServerProc, type ServerProc } from './server-proc.js';
import { serverClient } from '../../src/domains/registry.js';

const asRoot = process.getuid?.() === 0;
const USER = `ana${process.pid % 100000}`;
const work = mkdtempSync(join(tmpdir(), 'agentteam-readme-'));
const etc = join(work, 'etc-agentteam');
const anaBase = join(work, 'ana');
/** Ana's project folder: outside her home (a workdir that holds the home is refused). */
const anaWork = mkdtempSync(join(tmpdir(), 'agentteam-readme-ana-work-'));
chmodSync(anaWork, 0o755);
let anaIds: { uid: number; gid: number } | undefined;
let cluster: Cluster;
const procs: ServerProc[] = [];
const olga = new TestDaemon();
const PASSWORD = 'Pw-readme-s3cret';

/** Ana's CLI: as her own OS user (root CI) with her own HOME and home; else a second home of this user. */
function ana(args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  return new Promise((res) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: anaBase,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: anaBase, AGENTTEAM_HOME: join(anaBase, 'home'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(anaIds ?? {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const t = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => (clearTimeout(t), res({ code, stdout, stderr })));
  });
}

/** systemd's EnvironmentFile: KEY=VALUE lines. */
const envFile = (p: string): Record<string, string> =>
  Object.fromEntries(readFileSync(p, 'utf8').split('\n').filter((l) => /^[A-Z_]+=/.test(l)).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));

before(async () => {
  chmodSync(work, 0o711); // Ana passes through to her own folder; she cannot list or change this one
  if (asRoot) {
    const add = execFileSync('sh', ['-c', `id -u ${USER} >/dev/null 2>&1 || useradd -M -N -s /usr/sbin/nologin ${USER}; id -u ${USER}; id -g ${USER}`], { encoding: 'utf8' }).trim().split('\n');
    anaIds = { uid: Number(add[0]), gid: Number(add[1]) };
  }
  mkdirSync(anaBase, { mode: 0o700 });
  if (anaIds) chownSync(anaBase, anaIds.uid, anaIds.gid);
  cluster = await startCluster();
});
after(async () => {
  await ana(['daemon', 'stop']).catch(() => undefined);
  await olga.dispose();
  await Promise.all(procs.map((p) => p.stop()));
  await cluster?.stop();
  if (anaIds) execFileSync('userdel', [USER]);
  rmSync(work, { recursive: true, force: true });
});

test("the README's team section, step by step: both people's agents answer each other's DMs and in #general", async () => {
  // 1. The database: a role with a password and a database it owns; the URL only in a 0600 env file.
  const dbName = `agentteam_readme_${process.pid}`;
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query(`CREATE ROLE agentteam LOGIN PASSWORD '${PASSWORD}'`);
  await admin.query(`CREATE DATABASE ${dbName} OWNER agentteam`);
  await admin.end();
  mkdirSync(join(etc, 'tls'), { recursive: true, mode: 0o700 });
  writeFileSync(join(etc, 'server.env'), `AGENTTEAM_DB=postgres://agentteam:${PASSWORD}@127.0.0.1:${cluster.port}/${dbName}\n`, { mode: 0o600 });
  // A private CA and a certificate for the server's name (team.example.com here is localhost).
  const tls = join(etc, 'tls');
  const ssl = (args: string[]) => execFileSync('openssl', args, { cwd: tls, stdio: 'ignore' });
  ssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=readme-ca', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign']);
  ssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'srv.csr', '-subj', '/CN=localhost']);
  writeFileSync(join(tls, 'ext.cnf'), 'subjectAltName=DNS:localhost\n');
  ssl(['x509', '-req', '-in', 'srv.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'fullchain.pem', '-days', '1', '-extfile', 'ext.cnf']);

  // 2. Two server processes, as the unit runs them: EnvironmentFile, and no database URL in argv.
  const env = envFile(join(etc, 'server.env'));
  for (const n of ['7700', '7701']) {
    const args = ['--host', '127.0.0.1', '--allowed-host', 'localhost', '--tls-cert', join(tls, 'fullchain.pem'), '--tls-key', join(tls, 'key.pem'), '--admin-token-file', join(etc, 'admin.token'), '--log-file', join(work, `srv-${n}.log`)];
    const p = await startServerProc(args, join(work, `srv-${n}-home`), env);
    procs.push(p);
    const argv = readFileSync(`/proc/${p.child.pid}/cmdline`, 'utf8');
    assert.ok(!argv.includes(PASSWORD) && !argv.includes('postgres://'), 'no database URL in the process list');
  }
  const urls = procs.map((p) => `https://localhost:${new URL(p.url).port}`).join(',');
  const ca = join(tls, 'ca.pem');

  // 3. Olga becomes the owner with the admin token; the server id is read and pinned.
  const init = await olga.run(['init', '--server-url', urls, '--server-ca', ca, '--name', 'Olga'], { env: { AGENTTEAM_SERVER_ADMIN_TOKEN: readFileSync(join(etc, 'admin.token'), 'utf8').trim() } });
  assert.equal(init.code, 0, init.stderr);
  const st = cliJson(init);
  olga.pid = st.pid;
  assert.equal(st.healthy, true);
  assert.equal(st.server.serverId, procs[0]!.serverId);

  // 4. Olga invites Ana as an admin.
  const inv = await olga.run(['member', 'invite', '--name', 'Ana', '--role', 'admin', '--json']);
  assert.equal(inv.code, 0, inv.stderr);
  const { code } = cliJson(inv);

  // 5. Ana joins from her machine (her own OS user), with ca.pem from Olga.
  const anaCa = join(anaBase, 'ca.pem');
  copyFileSync(ca, anaCa);
  if (anaIds) chownSync(anaCa, anaIds.uid, anaIds.gid);
  const joined = await ana(['init', '--server-url', urls, '--server-ca', anaCa, '--invite', code]);
  assert.equal(joined.code, 0, joined.stderr);
  assert.equal(cliJson(joined).healthy, true);
  const members = cliJson(await ana(['member', 'ls'])).map((m: { name: string; role: string }) => [m.name, m.role]);
  assert.deepEqual(members, [['Olga', 'owner'], ['Ana', 'admin']]);

  // 6. Both add agents, each on their own daemon.
  const olgaLog = join(work, 'olga-bot.log');
  const anaLog = join(anaBase, 'ana-bot.log');
  const olgaAdd = await olga.run(['agent', 'add', '--name', 'olga-bot', '--runtime', 'command', '--', process.execPath, AGENT, olgaLog, 'reply'], { cwd: work });
  assert.equal(olgaAdd.code, 0, olgaAdd.stderr);
  const anaAdd = await ana(['agent', 'add', '--name', 'ana-bot', '--runtime', 'command', '--workdir', anaWork, '--', process.execPath, AGENT, anaLog, 'reply']);
  assert.equal(anaAdd.code, 0, anaAdd.stderr);
  const olgaBot = cliJson(olgaAdd) as { id: string };
  const anaBot = cliJson(anaAdd) as { id: string };

  // 7. Each DMs the other's agent (with their own credential), and both agents answer in #general.
  const cred = (home: string) => (JSON.parse(readFileSync(join(home, 'owner.json'), 'utf8')) as { credential: string }).credential;
  const client = serverClient({ baseUrl: urls.split(',')[0]!, fallbackUrls: urls.split(',').slice(1), ca: readFileSync(ca) });
  try {
    const asOlga = client.as(cred(olga.home));
    const asAna = client.as(cred(join(anaBase, 'home')));
    const replied = async (api: typeof asOlga, target: string, from: string, to: MessageDto) =>
      waitFor(`${from} answers in ${target}`, async () => (await api.messages.list({ target, limit: 50 })).messages.find((m) => m.author.id === from && m.content === `reply to ${to.id}`), 60_000);
    const dmA = await asOlga.channels.openDm({ memberIds: [anaBot.id] });
    const toAnaBot = await asOlga.messages.send({ target: `dm:${dmA.id}`, content: 'what are you working on?' });
    const dmB = await asAna.channels.openDm({ memberIds: [olgaBot.id] });
    const toOlgaBot = await asAna.messages.send({ target: `dm:${dmB.id}`, content: 'hi from Ana' });
    await replied(asOlga, `dm:${dmA.id}`, anaBot.id, toAnaBot);
    await replied(asAna, `dm:${dmB.id}`, olgaBot.id, toOlgaBot);

    const hello = cliJson(await olga.run(['message', 'post', '--target', 'channel:general', '@olga-bot @ana-bot say hello'])) as MessageDto;
    await replied(asAna, 'channel:general', olgaBot.id, hello);
    await replied(asAna, 'channel:general', anaBot.id, hello);
  } finally {
    client.close();
  }
});
