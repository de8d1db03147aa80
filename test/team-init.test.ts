// End-to-end: the owner path of team mode (init --server-url with the admin token, no --server-id) and a daemon start that outlasts an unreachable server.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestDaemon, cliJson } from './harness.js';
import { startServerProc, type ServerProc } from './postgres/server-proc.js';

const dir = mkdtempSync(join(tmpdir(), 'agentteam-init-'));
const daemons: TestDaemon[] = [];
const procs: ServerProc[] = [];
const daemon = () => {
  const d = new TestDaemon();
  daemons.push(d);
  return d;
};
after(async () => {
  for (const d of daemons) await d.dispose();
  await Promise.all(procs.map((p) => p.stop()));
  rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

async function sqliteServer(name: string, port = 0): Promise<ServerProc & { admin: string }> {
  const db = join(dir, `${name}.db`);
  const p = await startServerProc(['--db', `sqlite:${db}`, '--port', String(port), '--log-file', join(dir, `${name}.log`)], join(dir, `${name}-home`));
  procs.push(p);
  return Object.assign(p, { admin: readFileSync(`${db}.admin-token`, 'utf8').trim() });
}

test('init --server-url with the admin token makes the owner (named by --name, server id read and pinned); every refusal names the next command', async () => {
  const srv = await sqliteServer('owner');
  const url = srv.url;

  // A fresh home without the token is told both ways in: an invite, or the admin token. Nothing is stored.
  const bare = daemon();
  const r0 = await bare.run(['init', '--server-url', url], { env: { AGENTTEAM_SERVER_ADMIN_TOKEN: undefined } });
  assert.equal(r0.code, 2, r0.stderr);
  assert.match(r0.stderr, new RegExp(`agentteam init --server-url ${url} --invite CODE`));
  assert.match(r0.stderr, /AGENTTEAM_SERVER_ADMIN_TOKEN=/);
  assert.doesNotMatch(r0.stderr, /lost/);
  assert.ok(!existsSync(join(bare.home, 'owner.json')) && !existsSync(join(bare.home, 'server.json')));

  const wrong = await bare.run(['init', '--server-url', url], { env: { AGENTTEAM_SERVER_ADMIN_TOKEN: 'ata_' + 'x'.repeat(43) } });
  assert.equal(wrong.code, 4, wrong.stderr);
  assert.match(wrong.stderr, /admin token was refused/);

  const owner = daemon();
  const r1 = await owner.run(['init', '--server-url', url, '--name', 'Olga'], { env: { AGENTTEAM_SERVER_ADMIN_TOKEN: srv.admin } });
  assert.equal(r1.code, 0, r1.stderr);
  const s1 = cliJson(r1);
  owner.pid = s1.pid;
  assert.equal(s1.server.mode, 'remote');
  assert.equal(s1.server.serverId, srv.serverId);
  assert.deepEqual(JSON.parse(readFileSync(join(owner.home, 'server.json'), 'utf8')), { urls: [url], serverId: srv.serverId });
  assert.deepEqual(cliJson(await owner.run(['member', 'ls'])).map((m: { name: string; role: string }) => [m.name, m.role]), [['Olga', 'owner']]);
  // Idempotent: again on the same home answers with the running daemon.
  const again = await owner.run(['init', '--server-url', url], { env: { AGENTTEAM_SERVER_ADMIN_TOKEN: undefined } });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(cliJson(again).pid, owner.pid);

  // A second fresh home on the taken server (even with the token) is told to ask for an invite, never "lost its credential".
  for (const args of [['init', '--server-url', url], ['daemon', 'start', '--server-url', url, '--server-id', srv.serverId]]) {
    const other = daemon();
    const r = await other.run(args, { env: { AGENTTEAM_SERVER_ADMIN_TOKEN: srv.admin } });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /already has an owner/);
    assert.match(r.stderr, new RegExp(`agentteam init --server-url ${url} --invite CODE`));
    assert.doesNotMatch(r.stderr, /lost/);
    assert.ok(!existsSync(join(other.home, 'owner.json')));
  }
});

test('daemon start outlasts an unreachable server: connects when one comes up; gives up non-zero with the reason after --server-wait', async () => {
  const port = await freePort();
  const first = await sqliteServer('late', port);
  const { serverId, admin } = first;
  await first.stop();

  // Every server process down: the detached start keeps retrying; the server comes up after a few retries.
  const d = daemon();
  const started = d.run(['daemon', 'start', '--server-url', `http://127.0.0.1:${port}`, '--server-id', serverId, '--server-wait', '60'], { env: { AGENTTEAM_SERVER_ADMIN_TOKEN: admin }, timeoutMs: 90_000 });
  const out = join(d.home, 'logs', 'daemon.out');
  const retries = () => (existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter((l) => l.includes('server unreachable')).length : 0);
  while (retries() < 3) await new Promise((r) => setTimeout(r, 100));
  await sqliteServer('late', port);
  const r = await started;
  assert.equal(r.code, 0, r.stderr);
  const s = cliJson(r);
  d.pid = s.pid;
  assert.equal(s.healthy, true);
  assert.equal(s.server.serverId, serverId);
  assert.match(r.stderr, /server unreachable .*retrying/);

  // Kept down: the foreground daemon exits non-zero (a supervisor restarts it) and says why.
  const down = await freePort();
  const fg = await daemon().run(['daemon', 'start', '--foreground', '--server-url', `http://127.0.0.1:${down}`, '--server-id', serverId, '--server-wait', '2'], { timeoutMs: 60_000 });
  assert.equal(fg.code, 1, fg.stderr);
  assert.match(fg.stderr, /gave up after \d+ s and \d+ attempts: server unreachable \(ECONNREFUSED\)/);
  assert.match(fg.stderr, /agentteam daemon start again/);
  // And detached: the start reports the daemon's exit with that reason.
  const bg = await daemon().run(['daemon', 'start', '--server-url', `http://127.0.0.1:${down}`, '--server-id', serverId, '--server-wait', '2'], { timeoutMs: 60_000 });
  assert.equal(bg.code, 1, bg.stderr);
  assert.match(bg.stderr, /exited during start-up \(code 1\).*gave up after/s);
});
