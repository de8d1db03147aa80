// Reliability 2: killing a runtime mid-traffic revokes it: in-flight requests complete or get 403, none succeeds after, file gone, RSS back.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { TestDaemon } from '../harness.js';
import { Client, daemonStatus, execHeaders, holdRequest, launchRuntime, MiB, mcpHeaders, PING, readExecToken, rss, sleep, type Runtime, killRuntimes } from './kit.js';

const d = new TestDaemon();
let client: Client;
const runtimes: Runtime[] = [];

before(async () => {
  await d.start();
  await d.addAgent('victim');
  client = new Client(d.port, 64);
});
after(async () => {
  client?.close();
  killRuntimes(runtimes);
  await d.dispose();
});

interface Outcome {
  kind: 'exec' | 'mcp';
  sentAt: number;
  doneAt: number;
  status: number;
  error?: string;
}

/** 24 clients (12 Exec task list, 12 MCP ping; under the 32-request bound of one authorization) until `stop()` or 20 s. */
function traffic(rt: Runtime) {
  const outcomes: Outcome[] = [];
  let stopped = false;
  const deadline = performance.now() + 20_000;
  const worker = async (kind: 'exec' | 'mcp') => {
    let token = kind === 'mcp' ? rt.mcpToken : readExecToken(rt);
    for (let i = 0; i < 20_000 && !stopped && performance.now() < deadline; i++) {
      if (kind === 'exec' && existsSync(rt.tokenFile)) {
        try {
          token = readExecToken(rt);
        } catch {
          /* the file vanished between the check and the read: keep the last token, as a racing CLI would fail closed anyway */
        }
      }
      const sentAt = performance.now();
      try {
        const r = kind === 'exec' ? await client.send('POST', `${rt.execBase}/task/list`, execHeaders(token), '{"limit":5}', 10_000) : await client.send('POST', rt.mcpPath, mcpHeaders(token), PING, 10_000);
        outcomes.push({ kind, sentAt, doneAt: performance.now(), status: r.status });
      } catch (e) {
        outcomes.push({ kind, sentAt, doneAt: performance.now(), status: 0, error: (e as Error).message });
      }
    }
  };
  const done = Promise.all([...Array.from({ length: 12 }, () => worker('exec')), ...Array.from({ length: 12 }, () => worker('mcp'))]);
  return { outcomes, stop: () => ((stopped = true), done) };
}

test('kill -9 of a runtime under Exec + MCP load: completes or 403, nothing succeeds after the revoke is seen, file gone, RSS returns', async () => {
  // Warm-up on a first runtime so the baseline includes JIT code and socket buffers, then revoke it the same way.
  const warm = await launchRuntime(d, client, 'victim');
  runtimes.push(warm);
  const w = traffic(warm);
  await sleep(2000);
  process.kill(warm.pid, 'SIGKILL');
  await sleep(500);
  await w.stop();
  for (let i = 0; i < 100 && (await daemonStatus(d, client)).counts.authorizations !== 0; i++) await sleep(50);
  globalThis.gc?.();
  await sleep(500);
  const baseline = rss(d.pid);

  const rt = await launchRuntime(d, client, 'victim');
  runtimes.push(rt);
  const t = traffic(rt);
  await sleep(2000);
  // Two requests whose bodies are still being read when the runtime dies: revocation cancels them (403, not a 408 later).
  const held = [holdRequest(d.port, `${rt.execBase}/task/list`, execHeaders(readExecToken(rt)), 20), holdRequest(d.port, rt.mcpPath, mcpHeaders(rt.mcpToken), 20)];
  await sleep(500);
  const peak = rss(d.pid);
  process.kill(rt.pid, 'SIGKILL');
  const killedAt = performance.now();
  await sleep(1500);
  await t.stop();
  const all = t.outcomes;
  const canceled = await Promise.all(held.map((h) => h.answer));
  for (const h of held) h.socket.destroy();
  assert.deepEqual(canceled.map((c) => c.status), [403, 403], 'bodies still being read are canceled with 403');

  const denied = all.filter((o) => o.status === 403);
  assert.ok(denied.length > 0, 'traffic ran into the revocation');
  const revokeSeen = Math.min(...denied.map((o) => o.doneAt));
  const before = all.filter((o) => o.sentAt < revokeSeen);
  const afterSeen = all.filter((o) => o.sentAt >= revokeSeen);
  const okBefore = before.filter((o) => o.status === 200).length;
  console.log(
    `revocation: ${all.length} requests (${okBefore} ok before the revoke was seen ${Math.round(revokeSeen - killedAt)} ms after kill -9, ${denied.length} denied, ${afterSeen.length} sent after); RSS baseline ${MiB(baseline)}, under load ${MiB(peak)}`,
  );
  assert.ok(okBefore > 100, `traffic succeeded before the kill (${okBefore})`);
  // Every request completed (200) or was canceled/denied (403); no 5xx, no dropped connection.
  const odd = all.filter((o) => o.status !== 200 && o.status !== 403);
  assert.deepEqual(odd.slice(0, 5), [], `requests neither completed nor denied: ${odd.length}`);
  // None succeeds once the revocation has been observed.
  const lateOk = afterSeen.filter((o) => o.status === 200);
  assert.equal(lateOk.length, 0, 'a request sent after the revoke was observed succeeded');
  assert.ok(afterSeen.length > 0, 'traffic continued after the revoke');

  // The token file and its private directory are gone.
  for (let i = 0; i < 100 && existsSync(dirname(rt.tokenFile)); i++) await sleep(50);
  assert.equal(existsSync(rt.tokenFile), false);
  assert.equal(existsSync(dirname(rt.tokenFile)), false);
  const st = await daemonStatus(d, client);
  assert.equal(st.counts.authorizations, 0);
  assert.equal(st.counts.inFlight, 0);

  // Memory returns near the baseline taken after an identical warm-up cycle.
  let after = rss(d.pid);
  for (let i = 0; i < 20 && after > baseline + 32 * 1024 * 1024; i++) {
    await sleep(250);
    after = rss(d.pid);
  }
  console.log(`revocation: RSS after revoke ${MiB(after)} (baseline ${MiB(baseline)}, delta ${MiB(after - baseline)})`);
  assert.ok(after <= baseline + 32 * 1024 * 1024, `RSS ${MiB(after)} returns within 32 MiB of baseline ${MiB(baseline)}`);
});
