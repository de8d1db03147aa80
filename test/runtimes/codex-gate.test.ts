// Opt-in real-runtime checks (`npm run test:runtimes`): a Codex turn through `codex app-server` gets the agentteam tools
// only as the helper's gated dynamic tools; the primary thread's write goes through the gate to the daemon, and a real
// Codex child thread (spawned by the primary with Codex's own `collaboration.spawn_agent`) reads but cannot post.
//
// Codex 0.169.0 offers the model its multi-agent tools (namespace `collaboration`: spawn_agent, wait_agent, …) by
// default; a spawned child is its own thread (agent path `/root/<task_name>`, a fork of the parent's history) whose
// model requests carry `x-openai-subagent: collab_spawn` and `x-codex-parent-thread-id`, and whose dynamic tool calls
// reach the helper as `item/tool/call` with the child's thread id. The scripted model tells the two apart by those
// headers (never by the prompt, which the fork shares).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findMessage, holdCredentials, runTurn, scriptSteps, turnInput } from './turns.js';
import { CHILD_DENIED_TEXT } from '../../src/wire/mcp/child-gate.js';
import { type RuntimeDaemon } from './daemon-runs.js';
import { isolatedEnv, workdir } from './harness.js';
import { useRuntimeSuite } from './suite.js';
import { toolResults, writeCodexCaptureProvider, type ModelCapture, type ModelReply, type ModelRequest, type ScriptedCall } from './model-capture.js';

const DEADLINE_MS = 120_000;
let rd: RuntimeDaemon;
let model: ModelCapture;

useRuntimeSuite(() => ({ CAPTURE_MODEL_KEY: 'not-a-key' }), (s) => ({ rd, model } = s));

const writeCaptureProvider = (codexHome: string): void => writeCodexCaptureProvider(codexHome, model.url);

const offersExec = (b: ModelRequest) => JSON.stringify(b.input ?? '').includes('"name":"exec"') || (b.tools ?? []).some((t) => t.name === 'exec');

test('codex turn: the agentteam tools are the helper\'s dynamic tools (no native MCP server); the primary thread posts through the gate', async (t) => {
  const creds = await holdCredentials(rd, 'cxg');
  const reply = 'primary through the gate';
  const js = [
    'text(JSON.stringify(Object.keys(tools)));',
    `const sent = await tools.agentteam__message_send({ target: "channel:general", content: ${JSON.stringify(reply)} });`,
    'text(JSON.stringify({ sent }));',
    'const read = await tools.agentteam__message_history_read({ target: "channel:general", limit: 1 });',
    'text(JSON.stringify({ read }));',
  ].join('\n');
  const call = { id: 'call_gate_primary', name: 'exec', custom: true, input: js };
  model.script = scriptSteps([{ call, offered: offersExec }]);
  const { env } = isolatedEnv();
  writeCaptureProvider(env.CODEX_HOME!);
  try {
    const run = await runTurn('codex', creds, turnInput('GATE-1'), { CAPTURE_MODEL_KEY: 'not-a-key' }, DEADLINE_MS, { env, cwd: workdir() });
    const r = await run.p.done;
    assert.equal(r.code, 0, `codex turn failed; stderr: ${run.p.stderr().slice(-800)}`);
    const out = JSON.stringify((await model.waitForToolResult(call.id, 1)).content).replace(/\\/g, '');
    t.diagnostic(`exec output: ${out.slice(0, 900)}`);
    // Code mode names the dynamic namespace's tools agentteam__<tool>; Codex has no native agentteam MCP server here.
    assert.match(out, /"agentteam__message_send"/);
    assert.ok(!/mcp__agentteam/.test(out), 'codex still has the native agentteam MCP server: a path around the gate');
    assert.match(out, /"sent":"\{"id":"msg[1-9]/);
    assert.match(out, /"read":/);
    assert.equal((await findMessage(rd, 'channel:general', reply))?.author.name, 'cxg');
    assert.match(run.p.stderr(), /"tool":"message_send","decision":"allow-primary"/);
    assert.ok(!run.p.stderr().includes(creds.env.AGENTTEAM_MCP_TOKEN!), 'the gate log holds the bearer');
  } finally {
    model.script = undefined;
    await creds.release();
  }
});


/** A shell scan for the MCP bearer: names of AGENTTEAM_MCP* vars in the env, then every /proc/<pid>/environ holding one. */
const SCAN = "env | grep -o '^AGENTTEAM_MCP[A-Z_]*=.' | sed 's/^/ENV /'; for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f 2>/dev/null | grep -q '^AGENTTEAM_MCP[A-Z_]*=.' && echo HIT $f; done; echo SCAN-END";

/** True for a model request of a Codex child thread (Codex marks a spawned agent's requests with these headers). */
const isChildRequest = (h: Record<string, string | string[] | undefined>) => h['x-openai-subagent'] === 'collab_spawn' && typeof h['x-codex-parent-thread-id'] === 'string';

test('codex turn: a real child thread spawned by the primary reads through the gate but its message_send is denied; the primary still posts', async (t) => {
  const creds = await holdCredentials(rd, 'cxc');
  const childText = 'child thread wrote this';
  const primaryText = 'primary posts after its child';
  const spawn: ScriptedCall = { id: 'call_spawn', name: 'spawn_agent', namespace: 'collaboration', input: { task_name: 'helper', message: 'Read #general, then return your result to the leader.' } };
  const wait: ScriptedCall = { id: 'call_wait', name: 'wait_agent', namespace: 'collaboration', input: { timeout_ms: 60_000 } };
  const childJs = [
    'const read = await tools.agentteam__message_history_read({ target: "channel:general", limit: 1 });',
    'text(JSON.stringify({ read }));',
    `let sent; try { sent = await tools.agentteam__message_send({ target: "channel:general", content: ${JSON.stringify(childText)} }); } catch (e) { sent = { threw: String(e) }; }`,
    'text(JSON.stringify({ sent }));',
    // Around the gate: the MCP bearer in the child's own env or in any process env its sandbox can see.
    `const scan = await tools.exec_command({ cmd: ${JSON.stringify(SCAN)} });`,
    'text(JSON.stringify({ scan }));',
  ].join('\n');
  const child: ScriptedCall = { id: 'call_child_exec', name: 'exec', custom: true, input: childJs };
  const post: ScriptedCall = { id: 'call_primary_post', name: 'exec', custom: true, input: `text(JSON.stringify(await tools.agentteam__message_send({ target: "channel:general", content: ${JSON.stringify(primaryText)} })));` };
  const primary = scriptSteps([
    { call: spawn, offered: (b) => JSON.stringify(b.input ?? '').includes('"name":"spawn_agent"') },
    { call: wait, offered: () => true },
    { call: post, offered: offersExec },
  ]);
  let childDone = false;
  model.script = (b, h): ModelReply | undefined => {
    if (!isChildRequest(h)) return primary(b);
    if (toolResults(b).some((r) => r.tool_use_id === child.id)) return { text: 'result for the leader' };
    if (childDone) return undefined;
    childDone = true;
    return { toolUse: child };
  };
  const { env } = isolatedEnv();
  writeCaptureProvider(env.CODEX_HOME!);
  try {
    const run = await runTurn('codex', creds, turnInput('GATE-CHILD'), { CAPTURE_MODEL_KEY: 'not-a-key' }, DEADLINE_MS, { env, cwd: workdir() });
    const r = await run.p.done;
    assert.equal(r.code, 0, `codex turn failed; stderr: ${run.p.stderr().slice(-800)}`);
    // The child really was a Codex child thread: its requests named the primary as parent.
    const childReq = model.requests.find((q) => isChildRequest(q.headers));
    assert.ok(childReq, 'codex spawned no child thread');
    const primaryThread = JSON.parse(run.p.stdout().split('\n').find((l) => l.startsWith('{'))!).threadId as string;
    assert.equal(childReq.headers['x-codex-parent-thread-id'], primaryThread);
    const out = JSON.stringify((await model.waitForToolResult(child.id, 1)).content).replace(/\\/g, '');
    t.diagnostic(`child exec output: ${out.slice(0, 900)}`);
    assert.match(out, /"read":/);
    assert.ok(out.includes(CHILD_DENIED_TEXT), 'the child was not given the fixed refusal');
    assert.match(out, /SCAN-END/);
    assert.ok(!/ENV AGENTTEAM_MCP|HIT \/proc/.test(out), 'the child can reach an MCP bearer around the gate');
    assert.equal(await findMessage(rd, 'channel:general', childText), undefined, 'a Codex child thread posted a message');
    assert.equal((await findMessage(rd, 'channel:general', primaryText))?.author.name, 'cxc');
    // The gate's decisions: the child by its own thread id (never the primary's), the primary allowed.
    const decisions = run.p.stderr().split('\n').filter((l) => l.includes('"component":"codex-gate"')).map((l) => JSON.parse(l.slice(l.indexOf("{"))) as Record<string, string>);
    const childDecisions = decisions.filter((d) => d.threadId !== primaryThread).map((d) => [d.role, d.tool, d.decision]);
    assert.deepEqual(childDecisions, [['child', 'message_history_read', 'allow-read-only'], ['child', 'message_send', 'deny-effectful']]);
    assert.deepEqual(decisions.filter((d) => d.threadId === primaryThread).map((d) => [d.tool, d.decision]), [['message_send', 'allow-primary']]);
    assert.ok(!run.p.stderr().includes(childText), 'the gate log holds call arguments');
  } finally {
    model.script = undefined;
    await creds.release();
  }
});
