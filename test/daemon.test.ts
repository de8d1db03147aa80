// End-to-end: the daemon process, the owner CLI and the embedded server through the real `bin/agentteam` binary.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { TestDaemon, cliJson, http } from './harness.js';
import { processAlive } from '../src/shared/proc.js';

const d = new TestDaemon();
after(() => d.dispose());

test('init starts a healthy daemon on the embedded server with a private home', async () => {
  await d.start();
  const s = cliJson(await d.run(['daemon', 'status']));
  assert.equal(s.healthy, true);
  assert.equal(s.pid, d.pid);
  assert.equal(s.server.mode, 'embedded');
  assert.match(s.server.serverId, /^srv_/);
  assert.equal(typeof s.uptimeMs, 'number');
  assert.equal(typeof s.counts.agents, 'number');
  assert.equal(statSync(d.home).mode & 0o777, 0o700);
  assert.equal(statSync(join(d.home, 'owner.token')).mode & 0o777, 0o600);
  // init is idempotent: a second run reports the running daemon
  const again = await d.run(['init']);
  assert.equal(again.code, 0);
  assert.equal(cliJson(again).pid, d.pid);
});

test('a second daemon start on the same home is refused and names the running one', async () => {
  const r = await d.run(['daemon', 'start']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, new RegExp(`pid ${d.pid}`));
  const fg = await d.run(['daemon', 'start', '--foreground']);
  assert.equal(fg.code, 1);
  assert.match(fg.stderr, /already running/);
});

test('agent add, agent ls, message post and message ls as the Human owner', async () => {
  const a = await d.addAgent('demo');
  assert.match(a.id, /^agt[1-9]\d+$/);
  assert.equal(a.name, 'demo');
  assert.equal((a as any).credential, undefined, 'the credential never leaves the daemon');
  const ls = cliJson(await d.run(['agent', 'ls']));
  assert.deepEqual(ls.map((x: any) => x.name), ['demo']);
  const dup = await d.run(['agent', 'add', '--name', 'demo']);
  assert.equal(dup.code, 1);
  assert.match(dup.stderr, /conflict/);
  const post = await d.run(['message', 'post', '--target', 'channel:general', 'hello', 'agents']);
  assert.equal(post.code, 0, post.stderr);
  assert.equal(cliJson(post).content, 'hello agents');
  const list = cliJson(await d.run(['message', 'ls', '--target', 'channel:general']));
  assert.equal(list.messages[0].content, 'hello agents');
  assert.equal(list.hasMore, false);
  const bad = await d.run(['message', 'post', '--target', 'channel:nope', 'x']);
  assert.equal(bad.code, 1);
});

test('owner routes refuse bad input with a typed error and change nothing', async () => {
  const auth = { authorization: `Bearer ${d.ownerToken()}`, host: `127.0.0.1:${d.port}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const before = cliJson(await d.run(['agent', 'ls'])).length;
  const cases: Array<[Record<string, string>, string | Buffer, number, string]> = [
    [json, '{"name":', 400, 'invalid_input'],
    [json, '{"name":"x1","extra":true}', 422, 'validation_failed'],
    [json, '{"name":""}', 422, 'validation_failed'],
    [json, '[]', 422, 'validation_failed'],
    [{ ...auth, 'content-type': 'text/plain' }, '{"name":"x2"}', 400, 'invalid_input'],
    [json, Buffer.alloc(1024 * 1024 + 1, 0x20), 413, 'payload_too_large'],
  ];
  for (const [headers, body, status, code] of cases) {
    const r = await http(d.port, 'POST', '/api/daemon/agents', { headers, body });
    assert.equal(r.status, status, `${String(body).slice(0, 30)} → ${r.body}`);
    assert.equal(JSON.parse(r.body).error.code, code);
  }
  const wrong = await http(d.port, 'POST', '/api/daemon/agents', { headers: { ...json, authorization: 'Bearer ato_wrong' }, body: '{"name":"x3"}' });
  assert.equal(wrong.status, 403);
  const foreign = await http(d.port, 'GET', '/api/daemon/status', { headers: { ...auth, host: 'evil.example:80' } });
  assert.equal(foreign.status, 403);
  const origin = await http(d.port, 'GET', '/api/daemon/status', { headers: { ...auth, origin: 'http://evil.example' } });
  assert.equal(origin.status, 403);
  assert.equal(cliJson(await d.run(['agent', 'ls'])).length, before);
});

test('a slow owner body gets 408 after the 5 s read deadline', async () => {
  const { request } = await import('node:http');
  const status = await new Promise<number>((res, rej) => {
    const req = request({ host: '127.0.0.1', port: d.port, method: 'POST', path: '/api/daemon/agents', headers: { authorization: `Bearer ${d.ownerToken()}`, 'content-type': 'application/json', 'content-length': '100' } }, (r) => {
      r.resume();
      res(r.statusCode ?? 0);
    });
    req.on('error', rej);
    req.write('{"na');
  });
  assert.equal(status, 408);
});

test('kill -9 then restart: nothing blocks, data intact', async () => {
  process.kill(d.pid, 'SIGKILL');
  await new Promise((r) => setTimeout(r, 200));
  assert.ok(existsSync(join(d.home, 'daemon.lock')), 'the crashed daemon left its lock behind');
  const s = cliJson(await d.run(['daemon', 'status']));
  assert.equal(s.healthy, false);
  await d.start();
  const list = cliJson(await d.run(['message', 'ls', '--target', 'channel:general']));
  assert.equal(list.messages[0].content, 'hello agents');
  assert.deepEqual(cliJson(await d.run(['agent', 'ls'])).map((x: any) => x.name), ['demo']);
});

test('SIGTERM shuts the daemon down gracefully and removes its runtime files', async () => {
  const pid = d.pid;
  process.kill(pid, 'SIGTERM');
  let alive = true;
  for (let i = 0; i < 100 && alive; i++) {
    await new Promise((r) => setTimeout(r, 100));
    alive = processAlive(pid);
  }
  assert.equal(alive, false);
  assert.equal(existsSync(join(d.home, 'daemon.json')), false);
  assert.equal(existsSync(join(d.home, 'daemon.lock')), false);
  assert.match(readFileSync(join(d.home, 'logs', 'daemon.log'), 'utf8'), /daemon stopped/);
  const db = new Database(join(d.home, 'server.db'), { readonly: true });
  assert.ok((db.prepare('select count(*) n from messages').get() as { n: number }).n >= 1);
  db.close();
  // and it starts again; daemon stop works through the owner route
  await d.start();
  const stop = await d.run(['daemon', 'stop']);
  assert.equal(stop.code, 0);
  assert.equal(cliJson(stop).stopped, true);
  d.pid = 0;
});
