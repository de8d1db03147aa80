// Tests the Codex delegated-child effect gate: the rule on an inventory (annotation missing, false, non-boolean, unknown
// tool), and the built codex-turn helper run by a real daemon against a scripted app-server stand-in (a boundary we do
// not own) that calls the agentteam dynamic tools from the primary thread and from an announced child thread.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestDaemon, cliJson } from '../../../test/harness.js';
import { FakeClock } from '../../shared/clock.js';
import { RateLimitedLogger } from '../../shared/rate-limited-log.js';
import { CHILD_DENIED_TEXT } from '../../wire/mcp/child-gate.js';
import { codexTurnHelper } from './codex.js';
import { CodexToolGate, DYNAMIC_NAMESPACE, type McpTool } from './codex-tools.js';

const INVENTORY: McpTool[] = [
  { name: 'send', annotations: { readOnlyHint: false } },
  { name: 'read', annotations: { readOnlyHint: true } },
  { name: 'bare' },
  { name: 'stringy', annotations: { readOnlyHint: 'true' } },
];

function gateWith() {
  const calls: string[] = [];
  const lines: Record<string, unknown>[] = [];
  const diag = new RateLimitedLogger({ warn: (o) => lines.push(o) }, new FakeClock(0));
  const gate = new CodexToolGate({
    inventory: INVENTORY,
    primaryThreadId: () => 'thr_primary',
    callTool: async (name) => {
      calls.push(name);
      return { content: [{ type: 'text', text: `ran ${name}` }] };
    },
    diag,
  });
  const call = (threadId: string | undefined, tool: string, args: unknown = { content: 'secret-arg' }) => gate.handle({ threadId, turnId: 't', callId: 'c', namespace: DYNAMIC_NAMESPACE, tool, arguments: args });
  return { gate, calls, lines, call };
}

test('primary proceeds; a child calls only readOnlyHint === true tools; missing, false, non-boolean and unknown fail closed before any MCP request', async () => {
  const { calls, lines, call } = gateWith();
  assert.deepEqual(await call('thr_primary', 'send'), { contentItems: [{ type: 'inputText', text: 'ran send' }], success: true });
  assert.deepEqual(await call('thr_child', 'read'), { contentItems: [{ type: 'inputText', text: 'ran read' }], success: true });
  const denied = { contentItems: [{ type: 'inputText', text: CHILD_DENIED_TEXT }], success: false };
  for (const tool of ['send', 'bare', 'stringy', 'nope']) assert.deepEqual(await call('thr_child', tool), denied, tool);
  // A call without a thread id, or from a thread that merely claims readOnly in its arguments, is still a child.
  assert.deepEqual(await call(undefined, 'send'), denied);
  assert.deepEqual(await call('thr_child', 'send', { readOnlyHint: true, annotations: { readOnlyHint: true } }), denied);
  // A name outside our namespace is never dispatched.
  const { gate } = gateWith();
  assert.equal((await gate.handle({ threadId: 'thr_child', namespace: 'other', tool: 'read' })).success, false);
  assert.deepEqual(calls, ['send', 'read'], 'only the allowed calls reached the MCP endpoint');
  assert.deepEqual(
    lines.map((l) => [l.threadId, l.tool, l.decision]),
    [
      ['thr_primary', 'send', 'allow-primary'],
      ['thr_child', 'read', 'allow-read-only'],
      ['thr_child', 'send', 'deny-effectful'],
      ['thr_child', 'bare', 'deny-effectful'],
      ['thr_child', 'stringy', 'deny-effectful'],
      ['thr_child', 'nope', 'deny-unknown'],
      ['', 'send', 'deny-effectful'],
      ['thr_child', 'send', 'deny-effectful'],
    ],
  );
  assert.ok(!JSON.stringify(lines).includes('secret-arg'), 'the log never holds call arguments');
});

test('the flat Codex name agentteam__<tool> is the same raw tool; mcp__agentteam__<tool> is not ours; after close() nobody runs anything', async () => {
  const { gate, calls, lines } = gateWith();
  assert.equal((await gate.handle({ threadId: 'thr_primary', namespace: null, tool: 'agentteam__send' })).success, true);
  assert.equal((await gate.handle({ threadId: 'thr_primary', namespace: null, tool: 'mcp__agentteam__send' })).success, false);
  gate.close();
  assert.deepEqual(await gate.handle({ threadId: 'thr_primary', namespace: DYNAMIC_NAMESPACE, tool: 'send' }), { contentItems: [{ type: 'inputText', text: 'the turn has ended' }], success: false });
  assert.deepEqual(await gate.handle({ threadId: 'thr_child', namespace: DYNAMIC_NAMESPACE, tool: 'read' }), { contentItems: [{ type: 'inputText', text: CHILD_DENIED_TEXT }], success: false });
  assert.deepEqual(calls, ['send']);
  assert.deepEqual(lines.map((l) => l.decision), ['allow-primary', 'deny-unknown', 'deny-turn-ended', 'deny-turn-ended']);
});

test('a child announced by thread/started is logged with its parent thread id', async () => {
  const { gate, lines } = gateWith();
  gate.noteThread({ id: 'thr_kid', parentThreadId: 'thr_primary' });
  gate.noteThread({ id: 'thr_kid2', parentThreadId: null, source: { subAgent: { thread_spawn: { parent_thread_id: 'thr_primary', depth: 1 } } } });
  await gate.handle({ threadId: 'thr_kid', namespace: DYNAMIC_NAMESPACE, tool: 'send' });
  await gate.handle({ threadId: 'thr_kid2', namespace: DYNAMIC_NAMESPACE, tool: 'read' });
  assert.deepEqual(lines.map((l) => [l.threadId, l.parentThreadId, l.decision]), [
    ['thr_kid', 'thr_primary', 'deny-effectful'],
    ['thr_kid2', 'thr_primary', 'allow-read-only'],
  ]);
});

// The stand-in app-server: answers initialize/thread/start, records dynamicTools and its own env names, then on
// turn/start announces a child thread and issues item/tool/call requests from both threads, logging every answer.
const dir = mkdtempSync(join(tmpdir(), 'codex-gate-'));
const d = new TestDaemon();
before(async () => {
  await d.start();
  await d.addAgent('gatebot');
});
after(async () => {
  await d.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const FAKE = join(dir, 'codex');
writeFileSync(
  FAKE,
  `#!${process.execPath}
const fs = require('node:fs');
const log = (m) => fs.appendFileSync(process.env.LOG, JSON.stringify(m) + '\\n');
log({ envNames: Object.keys(process.env).filter((k) => k.toUpperCase().includes('AGENTTEAM')) });
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const CALLS = [
  ['thr_p', 'message_send', { target: 'channel:general', content: 'primary posts' }],
  ['thr_c', 'message_history_read', { target: 'channel:general', limit: 1 }],
  ['thr_c', 'message_send', { target: 'channel:general', content: 'child posts' }],
  ['thr_c', 'message_react', { messageId: 'msg_x', emoji: 'eyes' }],
  ['thr_c', 'no_such_tool', {}],
  ['thr_stranger', 'message_send', { target: 'channel:general', content: 'stranger posts' }],
];
// Sent on the same line batch as the primary's turn/completed: a child (and the primary) still calling after the turn ended.
const LATE = [
  ['thr_c', 'message_send', { target: 'channel:general', content: 'late child posts' }],
  ['thr_p', 'message_send', { target: 'channel:general', content: 'late primary posts' }],
  ['thr_c', 'message_history_read', { target: 'channel:general', limit: 1 }],
];
let answered = 0;
let buf = '';
process.stdin.setEncoding('utf8').on('data', (chunk) => {
  buf += chunk;
  for (let i = buf.indexOf('\\n'); i >= 0; i = buf.indexOf('\\n')) {
    const m = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    if (m.method === 'initialize') { log(m); send({ id: m.id, result: {} }); }
    if (m.method === 'thread/start') { log(m); send({ id: m.id, result: { thread: { id: 'thr_p' } } }); }
    if (m.method === 'turn/start') {
      send({ id: m.id, result: { turn: { id: 'turn_1' } } });
      send({ method: 'thread/started', params: { thread: { id: 'thr_c', parentThreadId: 'thr_p' } } });
      CALLS.forEach(([threadId, tool, args], n) => send({ id: 500 + n, method: 'item/tool/call', params: { threadId, turnId: 'turn_1', callId: 'c' + n, namespace: 'agentteam', tool, arguments: args } }));
    }
    if (typeof m.id === 'number' && m.id >= 500 && !m.method) {
      log({ call: CALLS[m.id - 500].slice(0, 2), result: m.result });
      if (++answered === CALLS.length) {
        const done = { method: 'turn/completed', params: { threadId: 'thr_p', turn: { id: 'turn_1', status: 'completed', error: null } } };
        const late = LATE.map(([threadId, tool, args], n) => JSON.stringify({ id: 900 + n, method: 'item/tool/call', params: { threadId, turnId: 'turn_1', callId: 'l' + n, namespace: 'agentteam', tool, arguments: args } }));
        process.stdout.write([JSON.stringify(done), ...late].join('\\n') + '\\n');
      }
    }
  }
});
`,
  { mode: 0o755 },
);

test('the codex-turn helper under a real daemon: primary write posts; child read allowed; child write, effectful and unknown tools, a thread that is not the turn\'s, and every call after the turn ended denied with no post; codex never holds the MCP bearer', async () => {
  const logFile = join(dir, 'log');
  writeFileSync(logFile, '');
  const request = JSON.stringify({ developerInstructions: 'S', prompt: 'p' });
  const script = `printf '%s' '${request}' | LOG='${logFile}' '${process.execPath}' '${codexTurnHelper()}' '${FAKE}'`;
  const r = await d.run(['runtime', 'start', '--agent', 'gatebot', '--', 'sh', '-c', script], { cwd: dir });
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const log = readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  assert.deepEqual(log[0].envNames.filter((n: string) => n.includes('MCP')), [], 'codex got an MCP variable');
  assert.deepEqual(log.find((m) => m.method === 'initialize').params.capabilities, { experimentalApi: true });
  const ns = log.find((m) => m.method === 'thread/start').params.dynamicTools[0];
  assert.equal(ns.name, 'agentteam');
  assert.deepEqual(ns.tools.map((t: { name: string }) => t.name).sort(), ['kb_fetch', 'kb_search', 'memory_search', 'message_attachment_read', 'message_history_read', 'message_react', 'message_send']);
  const byCall = new Map(log.filter((m) => m.call).map((m) => [m.call.join(' '), m.result]));
  assert.equal(byCall.get('thr_p message_send').success, true);
  assert.match(byCall.get('thr_p message_send').contentItems[0].text, /channel:general/);
  assert.equal(byCall.get('thr_c message_history_read').success, true);
  assert.match(byCall.get('thr_c message_history_read').contentItems[0].text, /primary posts/);
  for (const k of ['thr_c message_send', 'thr_c message_react', 'thr_c no_such_tool']) assert.deepEqual(byCall.get(k), { contentItems: [{ type: 'inputText', text: CHILD_DENIED_TEXT }], success: false }, k);
  const ls = cliJson(await d.run(['message', 'ls', '--target', 'channel:general']));
  const contents = (ls.messages as { content: string }[]).map((m) => m.content);
  assert.ok(contents.includes('primary posts'));
  for (const c of ['child posts', 'stranger posts', 'late child posts', 'late primary posts']) assert.ok(!contents.includes(c), `posted after all: ${c}`);
  // The decisions are on the run's diagnostic output: thread id, tool, decision; no argument text.
  const decisions = (r.stdout + r.stderr).split('\n').filter((l) => l.includes('"component":"codex-gate"')).map((l) => JSON.parse(l.slice(l.indexOf('{'))));
  assert.deepEqual(decisions.map((x) => [x.threadId, x.tool, x.decision]), [
    ['thr_p', 'message_send', 'allow-primary'],
    ['thr_c', 'message_history_read', 'allow-read-only'],
    ['thr_c', 'message_send', 'deny-effectful'],
    ['thr_c', 'message_react', 'deny-effectful'],
    ['thr_c', 'no_such_tool', 'deny-unknown'],
    ['thr_stranger', 'message_send', 'deny-effectful'],
    ['thr_c', 'message_send', 'deny-turn-ended'],
    ['thr_p', 'message_send', 'deny-turn-ended'],
    ['thr_c', 'message_history_read', 'deny-turn-ended'],
  ]);
  assert.equal(decisions[2].parentThreadId, 'thr_p');
  assert.equal(decisions[5].parentThreadId, undefined, 'a thread codex never announced is still a child');
  assert.ok(!decisions.some((x) => JSON.stringify(x).includes('child posts')));
});
