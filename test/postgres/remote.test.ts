// End-to-end: `agentteam server start --db postgres://…` (two processes on one database) used by a daemon in remote mode.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { BIN, TestDaemon, cli, cliJson } from '../harness.js';
import { startCluster, type Cluster } from './cluster.js';

let cluster: Cluster;
const dir = mkdtempSync(join(tmpdir(), 'agentteam-pgsrv-'));
const servers: ChildProcess[] = [];
const d = new TestDaemon();

before(async () => {
  cluster = await startCluster();
});
after(async () => {
  await d.dispose();
  for (const s of servers) s.kill('SIGTERM');
  await Promise.all(servers.map((s) => (s.exitCode === null && s.signalCode === null ? new Promise((r) => s.once('exit', r)) : undefined)));
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `agentteam server start` and resolves with its first stdout line ({url, serverId}). */
function serverStart(args: string[], home: string): Promise<{ url: string; serverId: string }> {
  const child = spawn(process.execPath, [BIN, 'server', 'start', '--port', '0', ...args], { env: { ...process.env, AGENTTEAM_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
  servers.push(child);
  return new Promise((res, rej) => {
    let buf = '';
    let err = '';
    const t = setTimeout(() => rej(new Error('server did not start within 30 s')), 30_000);
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      buf += c;
      if (buf.includes('\n')) {
        clearTimeout(t);
        res(JSON.parse(buf.split('\n')[0]!));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(t);
      rej(new Error(`server exited ${code}: ${err}`));
    });
  });
}

test('two `server start --db postgres://` processes share one database; a daemon on one posts and reads a message', async () => {
  const db = await cluster.createDatabase();
  const homeA = join(dir, 'a');
  const homeB = join(dir, 'b');
  const tokenFile = join(dir, 'b-admin.token');
  const [a, b] = await Promise.all([serverStart(['--db', db], homeA), serverStart(['--db', db, '--admin-token-file', tokenFile], homeB)]);
  assert.match(a.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.notEqual(a.url, b.url);
  assert.equal(a.serverId, b.serverId, 'one database, one product owner');
  const adminFile = join(homeA, 'server-admin.token');
  assert.equal(statSync(adminFile).mode & 0o777, 0o600);
  assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
  const adminB = readFileSync(tokenFile, 'utf8').trim();

  const start = await d.run(['daemon', 'start', '--server-url', b.url, '--server-id', b.serverId], { env: { AGENTTEAM_SERVER_ADMIN_TOKEN: adminB } });
  assert.equal(start.code, 0, start.stderr);
  const s = cliJson(start);
  d.pid = s.pid;
  d.port = s.port;
  assert.equal(s.server.mode, 'remote');
  assert.equal(s.server.serverId, b.serverId);
  await d.addAgent('pg-agent');
  const post = await d.run(['message', 'post', '--target', 'channel:general', 'stored in postgres']);
  assert.equal(post.code, 0, post.stderr);
  const ls = cliJson(await d.run(['message', 'ls', '--target', 'channel:general']));
  assert.equal(ls.messages[0].content, 'stored in postgres');

  // The row is in PostgreSQL, and server A (the other process) serves the same workspace.
  const c = new pg.Client({ connectionString: db });
  await c.connect();
  const rows = (await c.query("SELECT content FROM messages WHERE target = 'channel:general'")).rows;
  await c.end();
  assert.deepEqual(rows, [{ content: 'stored in postgres' }]);
  const infoA = (await (await fetch(`${a.url}/v1/server`)).json()) as { data: { serverId: string } };
  assert.equal(infoA.data.serverId, b.serverId);
});

test('a bad --db is a usage error; an unreachable database fails without echoing the URL or its password', async () => {
  const home = join(dir, 'bad');
  const usage = await cli(home, ['server', 'start', '--port', '0', '--db', 'mysql://u:pw@127.0.0.1/x']);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /sqlite:PATH or postgres:\/\//);
  assert.ok(!usage.stderr.includes('pw@'));
  const down = await cli(home, ['server', 'start', '--port', '0', '--db', `postgres://u:s3cretpw@127.0.0.1:${cluster.port + 1}/none`], { timeoutMs: 30_000 });
  assert.equal(down.code, 1);
  assert.match(down.stderr, /server failed to start/);
  assert.ok(!down.stderr.includes('s3cretpw'), down.stderr);
  assert.equal(down.stdout, '');
});
