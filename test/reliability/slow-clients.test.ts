// Reliability 6: 200 connections trickling bodies get 408 at the 5 s body deadline and do not hold up other requests.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { TestDaemon } from '../harness.js';
import { Client, execHeaders, holdRequest, launchRuntime, mcpHeaders, ownerHeaders, PING, readExecToken, sleep, type Runtime, killRuntimes } from './kit.js';

const TRICKLERS = 200;
const RUNTIMES = 8; // 25 trickles each: under the 32-request bound of one authorization
const TRICKLE_MS = 250;

const d = new TestDaemon();
let client: Client;
const runtimes: Runtime[] = [];

before(async () => {
  await d.start();
  client = new Client(d.port, 8);
  for (let i = 0; i <= RUNTIMES; i++) {
    const r = await client.send('POST', '/api/daemon/agents', ownerHeaders(d), JSON.stringify({ name: `slow${i}` }));
    assert.equal(r.status, 201, r.body);
  }
  runtimes.push(...(await Promise.all(Array.from({ length: RUNTIMES + 1 }, (_, i) => launchRuntime(d, client, `slow${i}`)))));
});
after(async () => {
  client?.close();
  killRuntimes(runtimes);
  await d.dispose();
});

test('200 trickling bodies get 408 at the deadline while normal requests keep completing', async () => {
  const trickles = Array.from({ length: TRICKLERS }, (_, i) => {
    const rt = runtimes[i % RUNTIMES]!;
    const exec = i % 2 === 0;
    const h = exec ? holdRequest(d.port, `${rt.execBase}/task/list`, execHeaders(readExecToken(rt)), 4096) : holdRequest(d.port, rt.mcpPath, mcpHeaders(rt.mcpToken), 4096);
    let sent = 0;
    let answered = false;
    void h.answer.then(() => (answered = true));
    // One body byte every 250 ms (at most 4096, far fewer before the deadline), until the server answers.
    const timer = setInterval(() => {
      if (answered || sent >= 4095) return clearInterval(timer);
      h.socket.write(sent === 0 ? '{' : ' ');
      sent++;
    }, TRICKLE_MS);
    h.socket.on('error', () => undefined);
    return { exec, h, timer, sentAtAnswer: h.answer.then(() => sent) };
  });

  // Normal traffic on a ninth runtime and the owner API while the trickles run (bounded: 200 rounds).
  const other = runtimes[RUNTIMES]!;
  let firstAnswer = Infinity;
  void Promise.race(trickles.map((t) => t.h.answer)).then((a) => (firstAnswer = a.at));
  const normal: Array<{ at: number; statuses: number[] }> = [];
  for (let round = 0; round < 200 && firstAnswer === Infinity; round++) {
    const statuses = await Promise.all([
      client.send('POST', `${other.execBase}/task/list`, execHeaders(readExecToken(other)), '{"limit":5}').then((r) => r.status),
      client.send('POST', other.mcpPath, mcpHeaders(other.mcpToken), PING).then((r) => r.status),
      client.send('GET', '/api/daemon/status', ownerHeaders(d)).then((r) => r.status),
    ]);
    normal.push({ at: performance.now(), statuses });
    await sleep(100);
  }

  const answers = await Promise.all(trickles.map((t) => t.h.answer));
  const sentBytes = await Promise.all(trickles.map((t) => t.sentAtAnswer));
  for (const t of trickles) {
    clearInterval(t.timer);
    t.h.socket.destroy();
  }
  const first408 = Math.min(...answers.map((a) => a.at));
  const during = normal.filter((n) => n.at < first408);
  console.log(`slow clients: ${answers.filter((a) => a.status === 408).length}/${TRICKLERS} × 408 after ${Math.min(...sentBytes)}–${Math.max(...sentBytes)} trickled bytes each; ${during.length} rounds of normal requests (Exec, MCP, owner) completed during the trickle`);
  for (const [i, a] of answers.entries()) {
    assert.equal(a.status, 408, `trickle ${i}: ${a.text.slice(0, 160)}`);
    if (trickles[i]!.exec) assert.match(a.text, /"code":"request_timeout"/);
    else assert.match(a.text, /"jsonrpc":"2.0"/);
  }
  // The deadline is absolute: each trickle kept sending (many bytes at 250 ms) and still got 408.
  assert.ok(Math.min(...sentBytes) >= 10, 'trickles were still sending when the deadline fired');
  // Others were not delayed behind the trickles: many full rounds finished before the first 408 was sent.
  assert.ok(during.length >= 10, `normal requests completed during the trickle (${during.length} rounds)`);
  for (const n of during) assert.deepEqual(n.statuses, [200, 200, 200]);
});
