// Reliability 3: 2,000 held-open requests across 40 runtimes: 32 per authorization and 1024 in total admitted, the rest 409 before any body byte.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { processAlive } from '../../src/shared/proc.js';
import { TestDaemon } from '../harness.js';
import { Client, daemonStatus, execHeaders, holdRequest, launchRuntime, MiB, mcpHeaders, ownerHeaders, PING, readExecToken, rss, sleep, type Held, type Runtime, killRuntimes } from './kit.js';

const RUNTIMES = 40;
const PER_RUNTIME = 50;
const PER_AUTHORIZATION = 32;
const GLOBAL = 1024;

const d = new TestDaemon();
let client: Client;
const runtimes: Runtime[] = [];

before(async () => {
  await d.start();
  client = new Client(d.port, 16);
  for (let i = 0; i <= RUNTIMES; i++) {
    const r = await client.send('POST', '/api/daemon/agents', ownerHeaders(d), JSON.stringify({ name: `adm${i}` }));
    assert.equal(r.status, 201, r.body);
  }
  // One more runtime than loaded: it probes the global bound during the load.
  for (let i = 0; i <= RUNTIMES; i += 8) {
    const batch = await Promise.all(Array.from({ length: Math.min(8, RUNTIMES + 1 - i) }, (_, k) => launchRuntime(d, client, `adm${i + k}`)));
    runtimes.push(...batch);
  }
});
after(async () => {
  client?.close();
  killRuntimes(runtimes);
  await d.dispose();
});

const isExec = (i: number) => i % 2 === 0;
const path = (rt: Runtime, i: number) => (isExec(i) ? `${rt.execBase}/task/list` : rt.mcpPath);
const headers = (rt: Runtime, i: number) => (isExec(i) ? execHeaders(readExecToken(rt)) : mcpHeaders(rt.mcpToken));

async function normalRequests(rt: Runtime): Promise<number[]> {
  const a = await client.send('POST', `${rt.execBase}/task/list`, execHeaders(readExecToken(rt)), '{"limit":5}');
  const b = await client.send('POST', rt.mcpPath, mcpHeaders(rt.mcpToken), PING);
  return [a.status, b.status];
}

test('2,000 held requests: the 33rd per authorization and everything past 1024 get 409 before the body; RSS bounded; normal service after', async () => {
  // Warm-up: every runtime serves a normal request first.
  for (const rt of runtimes) assert.deepEqual(await normalRequests(rt), [200, 200]);
  const baseline = rss(d.pid);

  const held: Held[][] = [];
  const t0 = performance.now();
  for (let i = 0; i < RUNTIMES; i++) {
    const rt = runtimes[i]!;
    const conns = Array.from({ length: PER_RUNTIME }, () => holdRequest(d.port, path(rt, i), headers(rt, i), 64));
    held.push(conns);
    // Connected before the next runtime's batch, so admission roughly follows runtime order without waiting for answers.
    await Promise.all(conns.map((c) => new Promise((r) => (c.socket.readyState === 'open' ? r(null) : c.socket.once('connect', r).once('error', r)))));
  }
  const opened = performance.now() - t0;
  const all = held.flat();
  const expected = RUNTIMES * PER_RUNTIME - GLOBAL;
  let conflicts = 0;
  for (const h of all) void h.answer.then((a) => a.status === 409 && conflicts++);
  for (let k = 0; k < 400 && conflicts < expected; k++) await sleep(10);
  const peak = rss(d.pid);

  // While 1024 are held: a fresh runtime's request is refused by the global bound; the daemon and owner API are up.
  const probe = runtimes[RUNTIMES]!;
  assert.deepEqual(await normalRequests(probe), [409, 409], 'the global bound refuses a fresh authorization');
  const st = await daemonStatus(d, client);
  assert.equal(st.healthy, true);
  assert.equal(st.counts.inFlight, GLOBAL, 'exactly 1024 requests are admitted');

  // The admitted ones hit the 5 s body deadline (408) and release their leases; nothing else happens to them.
  const finals = await Promise.all(all.map((h) => h.answer));
  const first408 = Math.min(...finals.filter((f) => f.status === 408).map((f) => f.at));
  assert.ok(first408 - t0 > opened, 'every connection was opened before the first body deadline fired');
  // No body byte was ever sent: each request is either refused by admission (409) or admitted and ended by the deadline (408).
  const rejected = finals.filter((f) => f.status === 409);
  for (const a of rejected) {
    assert.match(a.text, /"code":"admission_rejected"/);
    assert.match(a.text, /connection: close/i);
  }
  assert.equal(rejected.length, expected, `409s: ${rejected.length}, expected ${expected}`);
  assert.equal(finals.filter((f) => f.status === 408).length, GLOBAL, 'admitted requests end with 408 at the body deadline');
  const admitted = held.map((_, i) => finals.slice(i * PER_RUNTIME, (i + 1) * PER_RUNTIME).filter((f) => f.status === 408).length);
  // Never more than 32 on one authorization; the global bound decides where the 1024 run out.
  for (const [i, n] of admitted.entries()) assert.ok(n <= PER_AUTHORIZATION, `runtime ${i} admitted ${n}`);
  assert.ok(admitted.filter((n) => n === PER_AUTHORIZATION).length >= GLOBAL / PER_AUTHORIZATION - 1, `admitted per runtime: ${admitted.join(',')}`);
  for (const h of all) h.socket.destroy();
  assert.ok(processAlive(d.pid), 'the daemon stays up');
  for (let k = 0; k < 100 && (await daemonStatus(d, client)).counts.inFlight !== 0; k++) await sleep(50);
  assert.equal((await daemonStatus(d, client)).counts.inFlight, 0);

  // Normal service on every runtime once the load ends.
  for (const rt of runtimes) assert.deepEqual(await normalRequests(rt), [200, 200]);
  const afterLoad = rss(d.pid);
  console.log(`admission: ${all.length} connections opened in ${Math.round(opened)} ms; ${rejected.length} × 409, ${GLOBAL} × 408; RSS baseline ${MiB(baseline)}, with 2,000 connections (1,024 held) ${MiB(peak)}, after ${MiB(afterLoad)}`);
  assert.ok(peak - baseline < 128 * 1024 * 1024, `RSS grew ${MiB(peak - baseline)} under 2,000 held connections (bound 128 MiB)`);
});
