// End-to-end: a standalone AgentTeam Server (`agentteam server start`) used by a daemon in remote mode.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, TestDaemon, cliJson } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'agentteam-srv-'));
let server: ChildProcess | undefined;
const d = new TestDaemon();
after(async () => {
  await d.dispose();
  server?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

test('server start on SQLite, then a daemon with --server-url/--server-id works against it', async () => {
  const db = join(dir, 'team.db');
  server = spawn(process.execPath, [BIN, 'server', 'start', '--port', '0', '--db', `sqlite:${db}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  const first = await new Promise<string>((res, rej) => {
    let buf = '';
    server!.stdout!.setEncoding('utf8').on('data', (c: string) => {
      buf += c;
      if (buf.includes('\n')) res(buf.split('\n')[0]!);
    });
    server!.once('exit', (code) => rej(new Error(`server exited ${code}`)));
  });
  const { url, serverId } = JSON.parse(first) as { url: string; serverId: string };
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  const adminFile = `${db}.admin-token`;
  assert.equal(statSync(adminFile).mode & 0o777, 0o600);
  const admin = readFileSync(adminFile, 'utf8').trim();

  const wrongId = await d.run(['daemon', 'start', '--server-url', url, '--server-id', 'srv_wrong'], { env: { AGENTTEAM_SERVER_ADMIN_TOKEN: admin } });
  assert.equal(wrongId.code, 1);
  assert.match(wrongId.stderr, /different server id/);

  // The daemon's own env carries the admin token under its name, another spelling and a copy under an unrelated name.
  const start = await d.run(['daemon', 'start', '--server-url', url, '--server-id', serverId], {
    env: { AGENTTEAM_SERVER_ADMIN_TOKEN: admin, agent_team_server_admin_token: admin, COPY_OF_ADMIN: `x${admin}x` },
  });
  assert.equal(start.code, 0, start.stderr);
  const s = cliJson(start);
  d.pid = s.pid;
  d.port = s.port;
  assert.equal(s.server.mode, 'remote');
  assert.equal(s.server.serverId, serverId);
  await d.addAgent('remote-agent');
  const post = await d.run(['message', 'post', '--target', 'channel:general', 'over the wire']);
  assert.equal(post.code, 0, post.stderr);
  const ls = cliJson(await d.run(['message', 'ls', '--target', 'channel:general']));
  assert.equal(ls.messages[0].content, 'over the wire');
  const usage = await d.run(['daemon', 'start', '--server-url', url]);
  assert.equal(usage.code, 2);

  // No daemon secret reaches a runtime: the admin token the daemon was started with, under any name, is absent.
  const wd = mkdtempSync(join(tmpdir(), 'agentteam-wd-'));
  const run = await d.run(['runtime', 'start', '--agent', 'remote-agent', '--workdir', wd, '--', 'env']);
  rmSync(wd, { recursive: true, force: true });
  assert.equal(run.code, 0, run.stderr);
  assert.ok(run.stdout.includes('AGENTTEAM_MCP_TOKEN='), 'the runtime printed its env');
  assert.ok(!run.stdout.includes(admin), 'the admin token is in no variable of the runtime');
  assert.ok(!/^agent[^a-z0-9=]*team[^=]*admin/im.test(run.stdout), 'no admin-token variable name at all');
});

test('a daemon refuses a server of another major.minor version, clearly, and remembers nothing of it', async () => {
  // A server of another release (only what a daemon reads first: who it is and its version).
  const other = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(req.url === '/v1/server' ? JSON.stringify({ ok: true, data: { serverId: 'srv_other', workspaceId: 'wsp_other', version: '9.4.0' } }) : '{"ok":false,"error":{"code":"not_found","message":"no"}}');
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  const home = new TestDaemon();
  try {
    const url = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
    const r = await home.run(['daemon', 'start', '--server-url', url, '--server-id', 'srv_other']);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /the server runs agentteam "9\.4\.0" and this daemon \d+\.\d+\.\d+; run the same major\.minor version on both/);
    assert.equal(existsSync(join(home.home, 'server.json')), false, 'the home does not adopt that server');
    // Joining it by invite is refused before the code is redeemed (the stand-in would answer /v1/join with not_found).
    const j = await home.run(['init', '--server-url', url, '--invite', 'ati_unused']);
    assert.equal(j.code, 1, j.stdout);
    assert.match(j.stderr, /could not join: the server runs agentteam "9\.4\.0"/);
    assert.equal(existsSync(join(home.home, 'owner.json')), false);
  } finally {
    await home.dispose();
    other.close();
  }
});
