// End-to-end: two daemons on one standalone AgentTeam Server; each follows only the agents whose credentials it holds.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, TestDaemon, cliJson } from './harness.js';
import { addTurnAgent, messages, post, readLog, turns, waitFor } from './turns-kit.js';
import { serverClient } from '../src/domains/registry.js';

const dir = mkdtempSync(join(tmpdir(), 'agentteam-two-'));
let server: ChildProcess | undefined;
const a = new TestDaemon();
const b = new TestDaemon();
after(async () => {
  await a.dispose();
  await b.dispose();
  server?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

async function startRemote(d: TestDaemon, url: string, serverId: string, admin?: string): Promise<void> {
  const r = await d.run(['daemon', 'start', '--server-url', url, '--server-id', serverId], { env: admin ? { AGENTTEAM_SERVER_ADMIN_TOKEN: admin } : {} });
  assert.equal(r.code, 0, r.stderr);
  d.pid = cliJson(r).pid;
}

test("a second daemon on the same server does not take the first one's turns", async () => {
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
  await startRemote(a, url, serverId, readFileSync(`${db}.admin-token`, 'utf8').trim());
  // The same person's second daemon: it holds the owner's credential, not daemon A's agent credentials.
  copyFileSync(join(a.home, 'owner.json'), join(b.home, 'owner.json'));
  await startRemote(b, url, serverId);

  const alpha = await addTurnAgent(a, 'alpha', join(dir, 'alpha.log'), 'reply');
  const beta = await addTurnAgent(b, 'beta', join(dir, 'beta.log'), 'reply');
  const toAlpha = await post(b, 'channel:general', '@alpha from the second daemon');
  const toBeta = await post(a, 'channel:general', '@beta from the first daemon');
  await waitFor('both replies', async () => {
    const all = await messages(a, 'channel:general');
    return all.some((m) => m.author.id === alpha.id && m.content === `reply to ${toAlpha.id}`) && all.some((m) => m.author.id === beta.id && m.content === `reply to ${toBeta.id}`);
  });
  await new Promise((r) => setTimeout(r, 1000));
  assert.deepEqual(readLog(join(dir, 'alpha.log')).filter((r) => r.ev === 'start').map((r) => r.messageId), [toAlpha.id]);
  assert.deepEqual(readLog(join(dir, 'beta.log')).filter((r) => r.ev === 'start').map((r) => r.messageId), [toBeta.id]);
  assert.equal((await turns(a, 'alpha')).length, 1);
  assert.equal((await turns(b, 'beta')).length, 1);
  const notHosted = await b.run(['agent', 'logs', 'alpha']);
  assert.equal(notHosted.code, 1);
  assert.match(notHosted.stderr, /not_found/);
});

test('connections cut mid-burst (a proxy destroys every socket): each message is exactly one turn, none lost or run twice', async () => {
  const db = join(dir, 'burst.db');
  const srv = spawn(process.execPath, [BIN, 'server', 'start', '--port', '0', '--db', `sqlite:${db}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  const c = new TestDaemon();
  const sockets = new Set<Socket>();
  let proxy: Server | undefined;
  try {
    const first = await new Promise<string>((res, rej) => {
      let buf = '';
      srv.stdout!.setEncoding('utf8').on('data', (s: string) => ((buf += s), buf.includes('\n') && res(buf.split('\n')[0]!)));
      srv.once('exit', (code) => rej(new Error(`server exited ${code}`)));
    });
    const { url, serverId } = JSON.parse(first) as { url: string; serverId: string };
    const target = new URL(url);
    // The daemon reaches the server only through this proxy; cut() destroys every live connection both ways.
    proxy = createServer((down) => {
      const up = connect(Number(target.port), target.hostname);
      for (const s of [down, up]) (sockets.add(s), s.on('close', () => sockets.delete(s)), s.on('error', () => undefined));
      down.pipe(up).pipe(down);
    });
    await new Promise<void>((r) => proxy!.listen(0, '127.0.0.1', r));
    const cut = () => {
      for (const s of sockets) s.destroy();
    };
    await startRemote(c, `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, serverId, readFileSync(`${db}.admin-token`, 'utf8').trim());
    const runs = join(dir, 'burst.log');
    const r = await c.run(['agent', 'add', '--name', 'burst', '--runtime', 'command', '--', 'sh', '-c', `echo "$AGENTTEAM_TURN_MESSAGE_ID" >> '${runs}'`]);
    assert.equal(r.code, 0, r.stderr);
    // The owner posts straight to the server (not through the proxy), so every post lands while the daemon's feed is cut.
    const client = serverClient({ baseUrl: url });
    const owner = client.as(JSON.parse(readFileSync(join(c.home, 'owner.json'), 'utf8')).credential as string);
    const posted: string[] = [];
    for (let i = 0; i < 30; i++) {
      posted.push((await owner.messages.send({ target: 'channel:general', content: `@burst item ${i}` })).id);
      if (i % 3 === 2) cut();
      if (i % 7 === 0) await new Promise((res) => setTimeout(res, 20));
    }
    cut();
    const lines = () => (existsSync(runs) ? readFileSync(runs, 'utf8').split('\n').filter(Boolean) : []);
    await waitFor('every turn', () => lines().length >= posted.length, 60_000);
    await new Promise((res) => setTimeout(res, 1500));
    assert.deepEqual(lines().slice().sort(), posted.slice().sort(), 'each message ran exactly once');
    client.close();
  } finally {
    await c.dispose();
    proxy?.close();
    for (const s of sockets) s.destroy();
    srv.kill('SIGTERM');
  }
});
