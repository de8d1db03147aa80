// Reliability 4: ≥ 10,000 hostile cases per route family against the real daemon: no crash, no 5xx, bounded responses, no state change when rejected.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import fc from 'fast-check';
import { processAlive } from '../../src/shared/proc.js';
import { TestDaemon } from '../harness.js';
import { cursorCase, execBodyCase, headerCase, mcpBodyCase, messagesAdded, pathCase, tasksAdded, type FuzzCase, type FuzzContext } from './fuzz-cases.js';
import { allMessages, allTasks, Client, daemonStatus, execHeaders, launchRuntime, mcpHeaders, readExecToken, type Reply, type Runtime, killRuntimes } from './kit.js';

const CASES = 10_000;
const BATCH = 16; // concurrent cases per step: under the 32-request admission bound of one authorization
/** 64 KiB result budget plus the JSON-RPC / Exec envelope and SSE framing. */
const MAX_RESPONSE = 64 * 1024 + 2048;
// A fresh seed each run (printed); FUZZ_SEED=<n> replays one.
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : randomInt(2 ** 31);

const d = new TestDaemon();
let client: Client;
let rt: Runtime;
let ctx: FuzzContext;

before(async () => {
  await d.start();
  await d.addAgent('fuzzer');
  client = new Client(d.port, BATCH);
  rt = await launchRuntime(d, client, 'fuzzer');
  const taskIds: string[] = [];
  const messageIds: string[] = [];
  for (let i = 0; i < 45; i++) {
    const t = await client.send('POST', `${rt.execBase}/task/create`, execHeaders(readExecToken(rt)), JSON.stringify({ title: `seed task ${i}` }));
    assert.equal(t.status, 200, t.body);
    taskIds.push(JSON.parse(t.body).data.task.id);
    const m = await client.send('POST', rt.mcpPath, mcpHeaders(rt.mcpToken), JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'message_send', arguments: { target: 'channel:general', content: `seed message ${i}` } } }));
    messageIds.push(JSON.parse(m.body).result.structuredContent.id);
  }
  // Large messages (≈ 8 KB each in UTF-8, at the message content bound) so history reads meet the 64 KiB result budget and must page themselves.
  for (let i = 0; i < 8; i++) {
    const m = await client.send('POST', rt.mcpPath, mcpHeaders(rt.mcpToken), JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'message_send', arguments: { target: 'channel:general', content: `${i}${'é'.repeat(3990)}` } } }));
    assert.equal(JSON.parse(m.body).result.isError, undefined, m.body.slice(0, 200));
  }
  const tl = JSON.parse((await client.send('POST', `${rt.execBase}/task/list`, execHeaders(readExecToken(rt)), '{"limit":20}')).body).data;
  const mh = JSON.parse((await client.send('POST', rt.mcpPath, mcpHeaders(rt.mcpToken), JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'message_history_read', arguments: { target: 'channel:general', limit: 20 } } }))).body).result.structuredContent;
  assert.ok(tl.nextCursor && mh.nextCursor, 'both collections have a second page');
  ctx = { rt, execToken: () => readExecToken(rt), ownerToken: d.ownerToken(), port: d.port, taskIds, messageIds, taskCursor: tl.nextCursor, messageCursor: mh.nextCursor };
});
after(async () => {
  client?.close();
  killRuntimes([rt]);
  await d.dispose();
});

async function counts(): Promise<{ tasks: number; messages: number }> {
  return { tasks: (await allTasks(client, rt)).length, messages: (await allMessages(d, client, 'channel:general')).length };
}

/** One line per case for failure reports; the runtime's secrets are replaced by their names. */
function describe(k: FuzzCase): string {
  const redact = (t: string) => t.split(rt.mcpToken).join('<mcp-token>').split(readExecToken(rt)).join('<exec-token>').split(ctx.ownerToken).join('<owner-token>');
  const body = k.body === undefined ? '' : Buffer.isBuffer(k.body) ? `<${k.body.length} bytes>` : k.body.slice(0, 300);
  return redact(`${k.method} ${k.path.slice(0, 300)} ${JSON.stringify(k.headers)} ${body}`);
}

/** Runs ≥ CASES cases of one family in concurrent batches; every case must pass the shared oracle and its own. */
async function family(name: string, arb: (c: FuzzContext) => fc.Arbitrary<FuzzCase>): Promise<void> {
  const before = await counts();
  const effects = { tasks: 0, messages: 0 };
  const statuses = new Map<number, number>();
  let ran = 0;
  let largest = 0;
  const failures: string[] = [];
  const runCase = async (k: FuzzCase): Promise<void> => {
    let r: Reply;
    try {
      r = await client.send(k.method, k.path, k.headers, k.body, 15_000);
    } catch (e) {
      throw new Error(`${name}: no HTTP response (${(e as Error).message}) for ${k.method} ${k.path.slice(0, 200)}`);
    }
    ran++;
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    largest = Math.max(largest, r.bytes);
    try {
      assert.ok(r.status >= 200 && r.status < 500, `status ${r.status}: ${r.body.slice(0, 200)}`);
      assert.ok(r.bytes <= MAX_RESPONSE, `${r.bytes}-byte response over the budget`);
      k.check?.(r);
    } catch (e) {
      failures.push(`${name}: ${(e as Error).message}\n  case: ${describe(k)}`);
      throw e;
    }
    // Only an accepted mutation may change state; the tally is compared with the owner's view afterwards.
    effects.tasks += tasksAdded(r, k.path);
    if (k.path.includes('/mcp/') || k.path.includes('/internal/mcp/')) effects.messages += messagesAdded(r);
  };
  const cases = arb(ctx).map((k) => Object.assign(k, { [fc.toStringMethod]: () => describe(k) }));
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(cases, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        await Promise.all(batch.map(runCase));
      }),
      { numRuns: Math.ceil(CASES / BATCH), seed: SEED, endOnFailure: true },
    );
  } catch (e) {
    // The first failing case, stated plainly (fast-check's report follows in the cause).
    throw new Error(failures[0] ?? (e as Error).message, { cause: e });
  }
  assert.ok(processAlive(d.pid), `${name}: the daemon is alive`);
  const st = await daemonStatus(d, client);
  assert.equal(st.healthy, true);
  const after = await counts();
  console.log(`fuzz ${name} (FUZZ_SEED=${SEED}): ${ran} cases; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}; largest response ${largest} B; accepted mutations +${effects.tasks} tasks, +${effects.messages} messages`);
  assert.ok(ran >= CASES, `${name}: ran ${ran} cases`);
  assert.deepEqual(after, { tasks: before.tasks + effects.tasks, messages: before.messages + effects.messages }, `${name}: state changed only by accepted requests`);
}

test('MCP JSON-RPC bodies', () => family('mcp-bodies', mcpBodyCase));
test('Exec bodies', () => family('exec-bodies', execBodyCase));
test('headers', () => family('headers', headerCase));
test('paths and methods', () => family('paths', pathCase));
test('cursors', () => family('cursors', cursorCase));

test('cursor canonical form: every one-character change of either cursor part is refused; the genuine cursor pages', async () => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const genuine = ctx.taskCursor;
  const dot = genuine.indexOf('.');
  const positions = [0, dot - 1, dot + 1, genuine.length - 1];
  let refused = 0;
  for (const at of positions) {
    for (const ch of alphabet) {
      const cursor = genuine.slice(0, at) + ch + genuine.slice(at + 1);
      const r = await client.send('POST', `${rt.execBase}/task/list`, execHeaders(readExecToken(rt)), JSON.stringify({ cursor }));
      const env = JSON.parse(r.body) as { ok: boolean; error?: { code: string } };
      if (cursor === genuine) assert.equal(env.ok, true);
      else {
        assert.equal(env.error?.code, 'validation_failed', `position ${at} -> ${ch} was not refused: ${r.status}`);
        refused++;
      }
    }
  }
  assert.equal(refused, positions.length * 63);
});
