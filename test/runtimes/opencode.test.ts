// Opt-in real-runtime checks (`npm run test:runtimes`): OpenCode launched by the real daemon connects, sends the agentteam tools to its model and calls one.
//
// OpenCode is started exactly as a user would: `agentteam runtime start --agent x --runtime opencode -- opencode …`
// against a real daemon; the opencode driver sets OPENCODE_CONFIG to its run-dir config. The daemon's throwaway HOME
// and XDG dirs isolate OpenCode's own config and login. Its Anthropic provider (the AI SDK reads ANTHROPIC_BASE_URL and
// ANTHROPIC_API_KEY from the daemon-passed env) is a loopback capture (model-capture.ts) that answers only when scripted.
// Every process is bounded by a deadline and killed by process group. Reading a runtime's token from /proc is Linux-only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cliJson } from '../harness.js';
import { useRuntimeSuite } from './suite.js';
import { assertHomeNotLeaked, plantHome } from './home-wall.js';
import { AGENTTEAM_TOOLS, captureRuntimeEnv, directLaunch, runtimeStart, stopAndCheckDead, type RuntimeDaemon } from './daemon-runs.js';
import { bytes, schemaBounds, isolatedEnv, plain, runBounded, workdir } from './harness.js';
import { scriptOneCall, toolResults, type ModelCapture, type ModelRequest, offers } from './model-capture.js';
import { execAs, findMessage, holdCredentials, README_PROMPT, readmeSetup, runTurn, scriptSteps, turnInput } from './turns.js';

const DEADLINE_MS = 90_000;
const MODEL_ENV = { ANTHROPIC_API_KEY: 'sk-ant-agentteam-runtime-tests-not-a-key' };
let rd: RuntimeDaemon;
let model: ModelCapture;
let dead: { token: string; mcpUrl: string } | undefined;

useRuntimeSuite((url) => ({ ...MODEL_ENV, ANTHROPIC_BASE_URL: url }), (s) => ({ rd, model } = s));

test('opencode: `opencode mcp list` launched by the daemon connects to agentteam; token dies with it', async (t) => {
  const agentId = (await rd.d.addAgent('oc', 'opencode')).id;
  const watch = captureRuntimeEnv(rd.d.pid, rd.mcpPath(agentId), DEADLINE_MS);
  const p = runtimeStart(rd, ['--agent', 'oc', '--runtime', 'opencode', '--workdir', workdir(), '--', 'opencode', 'mcp', 'list'], { cwd: workdir(), timeoutMs: DEADLINE_MS });
  try {
    const { env } = await watch;
    const r = await p.done;
    assert.equal(r.timedOut, false, `opencode mcp list did not finish; stderr: ${p.stderr().slice(-500)}`);
    const line = plain(p.stdout()).split('\n').find((s) => s.includes('agentteam')) ?? '';
    t.diagnostic(`opencode mcp list: ${line.trim()} (exit ${r.code})`);
    assert.match(line, /✓ agentteam\s+connected/);
    assert.equal(r.code, 0);
    dead = await stopAndCheckDead(rd, p, agentId, env);
  } finally {
    p.kill();
  }
});

test('opencode: `opencode run` launched by the daemon sends agentteam_<tool> definitions to the model and calls message_send on a scripted tool_use', async (t) => {
  const agentId = (await rd.d.addAgent('oc2', 'opencode')).id;
  const call = { id: 'toolu_agentteam_opencode', name: 'agentteam_message_send', input: { target: 'channel:general', content: 'hello from opencode' } };
  model.script = scriptOneCall(call);
  const watch = captureRuntimeEnv(rd.d.pid, rd.mcpPath(agentId), DEADLINE_MS);
  const args = ['--agent', 'oc2', '--runtime', 'opencode', '--workdir', workdir(), '--', 'opencode', 'run', '--model', 'anthropic/claude-sonnet-4-5', 'hi'];
  const p = runtimeStart(rd, args, { cwd: workdir(), timeoutMs: DEADLINE_MS });
  try {
    const { env } = await watch;
    const req = await model.waitFor((b) => (b.tools ?? []).some((x) => x.name?.startsWith('agentteam_')), DEADLINE_MS);
    const tools = req.tools ?? [];
    const ours = tools.filter((x) => x.name.startsWith('agentteam_'));
    t.diagnostic(
      `opencode model request: ${bytes(req)} B, ${tools.length} tools ${bytes(tools)} B [${tools.map((x) => x.name).join(',')}]; ` +
        `agentteam ${ours.length} definitions ${bytes(ours)} B, ${schemaBounds(ours)} schema bounds (${ours.map((x) => `${x.name}=${bytes(x)}`).join(', ')})`,
    );
    // OpenCode 1.18.33 names MCP tools <server>_<tool>, not mcp_agentteam_<tool> as src/wire/mcp/naming.ts assumes.
    assert.deepEqual(ours.map((x) => x.name).sort(), AGENTTEAM_TOOLS.map((n) => `agentteam_${n}`));
    assert.ok(!tools.some((x) => x.name.startsWith('mcp_agentteam_')));
    const result = await model.waitForToolResult(call.id, DEADLINE_MS);
    t.diagnostic(`opencode tool_result for message_send (model-visible): ${bytes(result)} B ${JSON.stringify(result).slice(0, 300)}`);
    assert.match(JSON.stringify(result.content), /channel:general/);
    assert.notEqual(result.is_error, true);
    const ls = cliJson(await rd.d.run(['message', 'ls', '--target', 'channel:general']));
    const sent = (ls.messages as { content: string; author: { name: string } }[]).find((m) => m.content === call.input.content);
    assert.equal(sent?.author.name, 'oc2');
    const r = await p.done;
    assert.equal(r.timedOut, false, 'opencode run did not end after the scripted turn');
    await stopAndCheckDead(rd, p, agentId, env);
  } finally {
    model.script = undefined;
    p.kill();
  }
});

test("opencode: handed its exited run's token directly, is refused by the daemon", async (t) => {
  assert.ok(dead, 'the opencode mcp list run must have finished');
  const o = await directLaunch('opencode', dead.token, dead.mcpUrl);
  const p = runBounded(o.plan.command, [...o.plan.args, 'mcp', 'list'], { env: o.env, cwd: o.cwd, timeoutMs: DEADLINE_MS });
  const r = await p.done;
  assert.equal(r.timedOut, false);
  const line = plain(p.stdout()).split('\n').find((l) => l.includes('agentteam')) ?? '';
  t.diagnostic(`opencode mcp list with a dead token: ${line.trim()}`);
  assert.ok(line.length > 0, 'agentteam missing from opencode mcp list');
  assert.doesNotMatch(line, /connected/);
});

test('opencode turn (default model and settings): instructions reach the model; a bash `agentteam exec task create` and agentteam_message_send succeed; the reply lands in the target; --session resumes', async (t) => {
  const creds = await holdCredentials(rd, 'oct');
  const marker = 'AGENTTEAM-STABLE-opencode-2c9e';
  const exec = { id: 'toolu_oc_exec', name: 'bash', input: { command: `agentteam exec task create '{"title":"release notes (opencode)"}'`, description: 'create the task' } };
  const send = { id: 'toolu_oc_send', name: 'agentteam_message_send', input: { target: 'channel:general', content: 'opencode turn reply: the task is created' } };
  model.script = scriptSteps([
    { call: exec, offered: offers('bash') },
    { call: send, offered: offers(send.name) },
  ]);
  const start = model.requests.length;
  try {
    const run = await runTurn('opencode', creds, turnInput(marker), { ...MODEL_ENV, ANTHROPIC_BASE_URL: model.url }, DEADLINE_MS);
    const r = await run.p.done;
    assert.equal(r.timedOut, false, `opencode turn did not finish; stderr: ${run.p.stderr().slice(-800)}`);
    assert.equal(r.code, 0, run.p.stderr().slice(-800));
    const withTools = model.requests.slice(start).filter((q) => offers('bash')(q.body));
    assert.ok(withTools.length > 0 && withTools.every((q) => JSON.stringify(q.body.system ?? '').includes(marker)), 'the instructions file did not reach the system prompt');
    t.diagnostic(`opencode default model: ${String(withTools[0]!.body.model)}`);
    const execResult = JSON.stringify((await model.waitForToolResult(exec.id, 1)).content);
    t.diagnostic(`opencode bash agentteam exec result: ${execResult.slice(0, 300)}`);
    assert.match(execResult, /tsk[1-9]\d+/);
    assert.notEqual((await model.waitForToolResult(send.id, 1)).is_error, true);
    assert.equal((await findMessage(rd, 'channel:general', send.input.content))?.author.name, 'oct');
    assert.match(JSON.stringify(await execAs(creds, ['task', 'list'])), /release notes \(opencode\)/);
    const sessionId = run.plan.resumeIdFrom?.(run.p.stdout());
    assert.match(sessionId ?? '', /^ses_/);

    model.script = () => ({ text: 'resumed' });
    const before = model.requests.length;
    const next = await runTurn('opencode', creds, turnInput(marker, { prompt: 'second turn', resumeId: sessionId }), { ...MODEL_ENV, ANTHROPIC_BASE_URL: model.url }, DEADLINE_MS, run.place);
    assert.equal((await next.p.done).code, 0, next.p.stderr().slice(-800));
    const resumed = model.requests.slice(before).find((q) => offers('bash')(q.body));
    assert.ok(resumed && JSON.stringify(resumed.body.messages).includes(send.input.content), 'the resumed session lost the first turn');
    assert.equal(next.plan.resumeIdFrom?.(next.p.stdout()), sessionId);
  } finally {
    model.script = undefined;
    await creds.release();
  }
});

test('opencode turn whose workdir holds an AgentTeam home (as `agent add` from ~ did): read of owner.token and bash `cat` of owner.json are denied by the driver\'s rules; agentteam exec still works; the token reaches neither the model nor anything posted', async (t) => {
  const creds = await holdCredentials(rd, 'ochome');
  // Inside the workdir, where OpenCode's own defaults allow every read (outside it, external_directory asks and a run stops).
  const { cwd, home, secret } = plantHome('opencode');
  const read = { id: 'toolu_oc_home_read', name: 'read', input: { filePath: join(home, 'owner.token') } };
  const cat = { id: 'toolu_oc_home_cat', name: 'bash', input: { command: `cat ${join(home, 'owner.json')}`, description: 'read the owner file' } };
  const exec = { id: 'toolu_oc_home_exec', name: 'bash', input: { command: `agentteam exec task create '{"title":"home denied (opencode)"}'`, description: 'create the task' } };
  const send = { id: 'toolu_oc_home_send', name: 'agentteam_message_send', input: { target: 'channel:general', content: 'home read:' } };
  // The model posts what its reads returned (as the attack did).
  const leak = (b: ModelRequest) => JSON.stringify(toolResults(b).filter((r) => [read.id, cat.id].includes(r.tool_use_id)).map((r) => r.content)).slice(0, 1500);
  model.script = scriptSteps([
    { call: read, offered: offers('read') },
    { call: cat, offered: offers('bash') },
    { call: exec, offered: offers('bash') },
    { call: send, offered: offers(send.name), build: (b, c) => ({ ...c, input: { ...(c.input as object), content: `home read: ${leak(b)}` } }) },
  ]);
  try {
    const run = await runTurn('opencode', creds, turnInput('AGENTTEAM-HOME-opencode'), { ...MODEL_ENV, ANTHROPIC_BASE_URL: model.url }, DEADLINE_MS, { env: isolatedEnv().env, cwd }, home);
    const r = await run.p.done;
    assert.equal(r.timedOut, false, `opencode turn did not finish; stderr: ${run.p.stderr().slice(-800)}`);
    assert.equal(r.code, 0, run.p.stderr().slice(-800));
    for (const c of [read, cat]) {
      const res = await model.waitForToolResult(c.id, 1);
      t.diagnostic(`opencode ${c.name} of the home: ${JSON.stringify(res).slice(0, 300)}`);
      assert.ok(!JSON.stringify(res).includes(secret), `${c.name} returned the owner token`);
    }
    assert.match(JSON.stringify((await model.waitForToolResult(exec.id, 1)).content), /tsk[1-9]\d+/);
    await assertHomeNotLeaked(rd, model, 'ochome', secret);
  } finally {
    model.script = undefined;
    await creds.release();
  }
});

test("README example `runtime start --agent demo --runtime opencode -- opencode run 'read #general and answer there'` reads and answers in #general as written", async () => {
  await readmeSetup(rd);
  const read = { id: 'toolu_oc_readme_read', name: 'agentteam_message_history_read', input: { target: 'channel:general' } };
  const send = { id: 'toolu_oc_readme_send', name: 'agentteam_message_send', input: { target: 'channel:general', content: 'opencode read: hello demo' } };
  model.script = scriptSteps([
    { call: read, offered: offers(read.name) },
    { call: send, offered: offers(send.name) },
  ]);
  try {
    const p = runtimeStart(rd, ['--agent', 'demo', '--runtime', 'opencode', '--', 'opencode', 'run', README_PROMPT], { cwd: workdir(), timeoutMs: DEADLINE_MS });
    const r = await p.done;
    assert.equal(r.code, 0, `the README example failed; stderr: ${p.stderr().slice(-800)}`);
    assert.match(JSON.stringify((await model.waitForToolResult(read.id, 1)).content), /hello demo/);
    assert.equal((await findMessage(rd, 'channel:general', send.input.content))?.author.name, 'demo');
  } finally {
    model.script = undefined;
  }
});
