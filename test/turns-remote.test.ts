// End-to-end: two daemons on one standalone AgentTeam Server; each follows only the agents whose credentials it holds.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, TestDaemon, cliJson } from './harness.js';
import { addTurnAgent, messages, post, readLog, turns, waitFor } from './turns-kit.js';

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
