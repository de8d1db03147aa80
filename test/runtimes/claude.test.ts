// Opt-in real-runtime checks (`npm run test:runtimes`): Claude Code launched by the real daemon sees, sends to its model and calls the agentteam tools.
//
// Claude is started exactly as a user would: `agentteam runtime start --agent x --runtime claude -- claude -p hi …`
// against a real daemon (`agentteam init`, embedded SQLite server); the claude driver inserts `--mcp-config=<file>`.
// The daemon passes its env to runtimes, so its throwaway HOME isolates Claude's own config and login, and the pinned
// runtime cache (harness.ts PINNED) is first on its PATH. Claude's model API (ANTHROPIC_BASE_URL) is a loopback capture
// (model-capture.ts): it records what Claude sends its model and answers only when a test scripted a reply.
// Every process is bounded by a deadline and killed by process group. Reading a runtime's token from /proc is Linux-only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson } from '../harness.js';
import { useRuntimeSuite } from './suite.js';
import { assertHomeNotLeaked, plantHome } from './home-wall.js';
import { AGENTTEAM_TOOLS, captureRuntimeEnv, directLaunch, pingBothRoutes, runtimeStart, startRuntimeDaemon, stopAndCheckDead, toolsList, waitRunExited, type RuntimeDaemon } from './daemon-runs.js';
import { bytes, schemaBounds, isolatedEnv, lineFrom, runBounded, workdir, type Bounded } from './harness.js';
import { scriptOneCall, toolResults, type ModelCapture, type ModelRequest, offers } from './model-capture.js';
import { execAs, findMessage, holdCredentials, README_PROMPT, readmeSetup, runTurn, scriptSteps, turnInput } from './turns.js';

const DEADLINE_MS = 90_000;
const NAMES = AGENTTEAM_TOOLS.map((n) => `mcp__agentteam__${n}`);
// A key no API accepts; it only makes Claude send its model requests (to the capture) instead of asking for a login.
const MODEL_ENV = { ANTHROPIC_API_KEY: 'sk-ant-agentteam-runtime-tests-not-a-key' };
const MODEL_ENV_FOR = (m: ModelCapture) => ({ ...MODEL_ENV, ANTHROPIC_BASE_URL: m.url });
let rd: RuntimeDaemon;
let model: ModelCapture;
let dead: { token: string; mcpUrl: string } | undefined;

useRuntimeSuite((url) => ({ ...MODEL_ENV, ANTHROPIC_BASE_URL: url }), (s) => ({ rd, model } = s));

interface Init {
  mcp_servers: { name: string; status: string }[];
  tools: string[];
}

/** `agentteam runtime start --runtime claude -- claude -p hi …` on `daemon`; resolves once Claude printed its init line. */
async function startClaude(daemon: RuntimeDaemon, name: string, extra: string[] = []): Promise<{ p: Bounded; agentId: string; env: Record<string, string>; init: Init }> {
  const agentId = (await daemon.d.addAgent(name, 'claude')).id;
  const watch = captureRuntimeEnv(daemon.d.pid, daemon.mcpPath(agentId), DEADLINE_MS);
  const args = ['--agent', name, '--runtime', 'claude', '--workdir', workdir(), '--', 'claude', '-p', 'hi', ...extra, '--strict-mcp-config', '--output-format', 'stream-json', '--verbose'];
  const p = runtimeStart(daemon, args, { cwd: workdir(), timeoutMs: DEADLINE_MS });
  try {
    const { env } = await watch;
    const initLine = await lineFrom(p, (s) => s.includes('"subtype":"init"'));
    assert.ok(initLine, `claude printed no init line; stderr: ${p.stderr().slice(-500)}`);
    return { p, agentId, env, init: JSON.parse(initLine) as Init };
  } catch (e) {
    p.kill();
    throw e;
  }
}

test('claude: launched by the daemon, connects to its MCP endpoint and lists mcp__agentteam__<tool>; the model gets them as deferred names; token dies with it', async (t) => {
  const c = await startClaude(rd, 'cl');
  try {
    const visible = c.init.tools.filter((n) => n.startsWith('mcp__'));
    t.diagnostic(`claude init: mcp_servers=${JSON.stringify(c.init.mcp_servers)} mcp tools=${JSON.stringify(visible)} (of ${c.init.tools.length} tools)`);
    assert.equal(c.init.mcp_servers.find((s) => s.name === 'agentteam')?.status, 'connected');
    assert.deepEqual(visible.sort(), NAMES);

    // Claude 2.1.328 defers MCP tools behind ToolSearch: the first model request names them in text, with no schemas.
    const req = await model.waitFor((b) => NAMES.every((n) => JSON.stringify(b).includes(n)), DEADLINE_MS);
    const tools = req.tools ?? [];
    assert.deepEqual(tools.filter((x) => x.name?.startsWith('mcp__agentteam__')), [], 'with tool search on, no agentteam schema is sent up front');
    assert.ok(tools.some((x) => x.name === 'ToolSearch'));
    t.diagnostic(`claude first model request (tool search on): ${bytes(req)} B, ${tools.length} tools [${tools.map((x) => x.name).join(',')}]; agentteam: 4 deferred names (${NAMES.join('\n').length} B)`);

    // Still running (waiting for its model): the token it connected with is live on both routes.
    const token = c.env.AGENTTEAM_MCP_TOKEN!;
    assert.deepEqual(await pingBothRoutes(rd, c.agentId, token), [200, 200]);
    const served = await toolsList(rd, c.agentId, token);
    assert.deepEqual(served.map((x) => x.name).sort(), [...AGENTTEAM_TOOLS]);
    t.diagnostic(`daemon tools/list result.tools: ${bytes(served)} B, ${schemaBounds(served)} schema bounds (${served.map((x) => `${x.name}=${bytes(x)}`).join(', ')})`);
    assert.ok(!c.p.stdout().includes(token) && !c.p.stderr().includes(token));
    dead = await stopAndCheckDead(rd, c.p, c.agentId, c.env);
  } finally {
    c.p.kill();
  }
});

test('claude: with ENABLE_TOOL_SEARCH=false the model gets every agentteam definition; on a scripted tool_use Claude calls message_send through the daemon with no hand-written flag', async (t) => {
  const daemon = await startRuntimeDaemon({ ...MODEL_ENV, ANTHROPIC_BASE_URL: model.url, ENABLE_TOOL_SEARCH: 'false' });
  const call = { id: 'toolu_agentteam_claude', name: 'mcp__agentteam__message_send', input: { target: 'channel:general', content: 'hello from claude' } };
  model.script = scriptOneCall(call);
  try {
    // `-p` denies MCP tools unless allowed: the driver's --allowedTools does it, no hand-written flag.
    const c = await startClaude(daemon, 'cl2');
    try {
      const req = await model.waitFor((b) => (b.tools ?? []).some((x) => x.name?.startsWith('mcp__agentteam__')), DEADLINE_MS);
      const tools = req.tools ?? [];
      const ours = tools.filter((x) => x.name.startsWith('mcp__agentteam__'));
      assert.deepEqual(ours.map((x) => x.name).sort(), NAMES);
      for (const x of ours) assert.equal(typeof x.description, 'string');
      t.diagnostic(
        `claude model request (tool search off): ${bytes(req)} B, ${tools.length} tools ${bytes(tools)} B; agentteam ${ours.length} definitions ${bytes(ours)} B, ${schemaBounds(ours)} schema bounds ` +
          `(${ours.map((x) => `${x.name}=${bytes(x)}`).join(', ')})`,
      );
      const result = await model.waitForToolResult(call.id, DEADLINE_MS);
      t.diagnostic(`claude tool_result for message_send (model-visible): ${bytes(result)} B ${JSON.stringify(result).slice(0, 300)}`);
      assert.match(JSON.stringify(result.content), /channel:general/);
      assert.notEqual(result.is_error, true);
      const r = await c.p.done;
      assert.equal(r.code, 0, `claude -p did not finish cleanly; stderr: ${c.p.stderr().slice(-500)}`);
      assert.match(c.p.stdout(), /"result":"done"/);
      const ls = cliJson(await daemon.d.run(['message', 'ls', '--target', 'channel:general']));
      const sent = (ls.messages as { content: string; author: { name: string } }[]).find((m) => m.content === call.input.content);
      assert.equal(sent?.author.name, 'cl2');
      assert.equal((await waitRunExited(daemon, c.agentId)).exitCode, 0);
      assert.deepEqual(await pingBothRoutes(daemon, c.agentId, c.env.AGENTTEAM_MCP_TOKEN!), [403, 403]);
    } finally {
      c.p.kill();
      await c.p.done;
    }
  } finally {
    model.script = undefined;
    await daemon.dispose();
  }
});

test("claude: handed its exited run's token directly, is refused by the daemon and offers no agentteam tool", async (t) => {
  assert.ok(dead, 'the first claude run must have finished');
  const c = await directLaunch('claude', dead.token, dead.mcpUrl);
  // The prompt sits right after the inserted flag: it must stay a prompt, not become a second config file.
  const p = runBounded(c.plan.command, [...c.plan.args, 'x', '-p', '--strict-mcp-config', '--output-format', 'stream-json', '--verbose'], { env: c.env, cwd: c.cwd, timeoutMs: DEADLINE_MS });
  const initLine = await lineFrom(p, (s) => s.includes('"subtype":"init"'));
  p.kill();
  await p.done;
  assert.ok(initLine, `claude printed no init line; stderr: ${p.stderr().slice(-500)}`);
  const init = JSON.parse(initLine) as Init;
  const server = init.mcp_servers.find((s) => s.name === 'agentteam');
  t.diagnostic(`claude with a dead token: ${JSON.stringify(server)}`);
  assert.ok(server && server.status !== 'connected');
  assert.ok(!init.tools.some((n) => n.startsWith('mcp__agentteam__')));
});

test('claude turn (default settings): instructions reach the model; a shell `agentteam exec task create` and message_send (found through ToolSearch) succeed; the reply lands in the target; the session id resumes', async (t) => {
  const creds = await holdCredentials(rd, 'clt');
  const marker = 'AGENTTEAM-STABLE-claude-7f3a';
  const exec = { id: 'toolu_turn_exec', name: 'Bash', input: { command: `agentteam exec task create '{"title":"release notes (claude)"}'`, description: 'create the task' } };
  const search = { id: 'toolu_turn_search', name: 'ToolSearch', input: { query: 'select:mcp__agentteam__message_send', max_results: 1 } };
  const send = { id: 'toolu_turn_send', name: 'mcp__agentteam__message_send', input: { target: 'channel:general', content: 'claude turn reply: the task is created' } };
  // Any other command stays behind Claude's permission check (`-p` denies what is not allowed).
  const other = { id: 'toolu_turn_other', name: 'Bash', input: { command: 'touch not-allowed', description: 'not an agentteam command' } };
  // Its Memory clone is writable through the file tools; the clone's .git is not.
  const mem = creds.env.AGENTTEAM_MEMORY_DIR!;
  const remember = { id: 'toolu_turn_mem', name: 'Write', input: { file_path: join(mem, 'notes', 'release.md'), content: '- 2026-12-01: release notes task (claude)\n' } };
  const hook = { id: 'toolu_turn_hook', name: 'Write', input: { file_path: join(mem, '.git', 'hooks', 'pre-commit'), content: '#!/bin/sh\ntouch /tmp/pwned\n' } };
  model.script = scriptSteps([
    { call: remember, offered: offers('Write') },
    { call: hook, offered: offers('Write') },
    { call: other, offered: offers('Bash') },
    { call: exec, offered: offers('Bash') },
    { call: search, offered: offers('ToolSearch') },
    // The deferred tool is callable once ToolSearch returned its schema (Claude then sends it as a tool).
    { call: send, offered: (b) => toolResults(b).some((r) => r.tool_use_id === search.id) },
  ]);
  try {
    const run = await runTurn('claude', creds, turnInput(marker), MODEL_ENV_FOR(model), DEADLINE_MS);
    const r = await run.p.done;
    assert.equal(r.timedOut, false, `claude turn did not finish; stderr: ${run.p.stderr().slice(-800)}`);
    assert.equal(r.code, 0, `claude turn failed; stderr: ${run.p.stderr().slice(-800)}`);
    const first = model.requests.find((q) => JSON.stringify(q.body.system ?? '').includes(marker));
    assert.ok(first, 'the stable instructions never reached the model as system prompt');
    const wrote = await model.waitForToolResult(remember.id, 1);
    assert.notEqual(wrote.is_error, true, `Write into the Memory clone failed: ${JSON.stringify(wrote).slice(0, 300)}`);
    assert.equal(readFileSync(remember.input.file_path, 'utf8'), remember.input.content);
    assert.equal((await model.waitForToolResult(hook.id, 1)).is_error, true, 'a Write into the clone\'s .git was allowed');
    assert.equal(existsSync(hook.input.file_path), false);
    const denied = await model.waitForToolResult(other.id, 1);
    t.diagnostic(`claude Bash outside the allowed rules: ${JSON.stringify(denied).slice(0, 200)}`);
    assert.equal(denied.is_error, true, 'a command other than `agentteam exec` ran without permission');
    assert.equal(existsSync(join(run.place.cwd, 'not-allowed')), false);
    const execResult = JSON.stringify((await model.waitForToolResult(exec.id, 1)).content);
    t.diagnostic(`claude Bash agentteam exec result: ${execResult.slice(0, 300)}`);
    assert.match(execResult, /tsk[1-9]\d+/);
    const sendResult = await model.waitForToolResult(send.id, 1);
    assert.notEqual(sendResult.is_error, true, JSON.stringify(sendResult));
    assert.equal((await findMessage(rd, 'channel:general', send.input.content))?.author.name, 'clt');
    const tasks = JSON.stringify(await execAs(creds, ['task', 'list']));
    assert.match(tasks, /release notes \(claude\)/);
    const sessionId = run.plan.resumeIdFrom?.(run.p.stdout());
    assert.match(sessionId ?? '', /^[0-9a-f-]{36}$/);

    // The next turn resumes that session: the model sees the first turn's messages again.
    model.script = () => ({ text: 'resumed' });
    const next = await runTurn('claude', creds, turnInput(marker, { prompt: 'second turn', resumeId: sessionId }), MODEL_ENV_FOR(model), DEADLINE_MS, run.place);
    assert.ok(next.plan.args.includes('--resume'));
    assert.equal((await next.p.done).code, 0, next.p.stderr().slice(-800));
    const resumed = model.requests.at(-1)!.body;
    assert.ok(JSON.stringify(resumed.messages).includes(send.input.content), 'the resumed session lost the first turn');
    assert.equal(next.plan.resumeIdFrom?.(next.p.stdout()), sessionId);
  } finally {
    model.script = undefined;
    await creds.release();
  }
});

test("README example `runtime start --agent demo --runtime claude -- claude -p 'read #general and answer there'` reads and answers in #general as written", async () => {
  await readmeSetup(rd);
  const search = { id: 'toolu_readme_search', name: 'ToolSearch', input: { query: 'select:mcp__agentteam__message_history_read,mcp__agentteam__message_send', max_results: 2 } };
  const read = { id: 'toolu_readme_read', name: 'mcp__agentteam__message_history_read', input: { target: 'channel:general' } };
  const send = { id: 'toolu_readme_send', name: 'mcp__agentteam__message_send', input: { target: 'channel:general', content: 'claude read: hello demo' } };
  model.script = scriptSteps([
    { call: search, offered: offers('ToolSearch') },
    { call: read, offered: (b) => toolResults(b).some((r) => r.tool_use_id === search.id) },
    { call: send, offered: (b) => toolResults(b).some((r) => r.tool_use_id === read.id) },
  ]);
  try {
    const p = runtimeStart(rd, ['--agent', 'demo', '--runtime', 'claude', '--', 'claude', '-p', README_PROMPT], { cwd: workdir(), timeoutMs: DEADLINE_MS });
    const r = await p.done;
    assert.equal(r.code, 0, `the README example failed; stderr: ${p.stderr().slice(-800)}`);
    assert.match(JSON.stringify((await model.waitForToolResult(read.id, 1)).content), /hello demo/);
    assert.equal((await findMessage(rd, 'channel:general', send.input.content))?.author.name, 'demo');
  } finally {
    model.script = undefined;
  }
});

test('claude turn whose workdir holds an AgentTeam home (as `agent add` from ~ did): a scripted Read, Write and Bash of the home secrets are denied by the driver\'s deny rules; the token reaches neither the model nor anything posted', async (t) => {
  const creds = await holdCredentials(rd, 'clhome');
  const { cwd, home, secret } = plantHome('claude');
  const read = { id: 'toolu_home_read', name: 'Read', input: { file_path: join(home, 'owner.token') } };
  // Claude 2.1.328 offers no Grep/Glob tool (search runs through Bash); Write is covered by the Edit deny rules.
  const write = { id: 'toolu_home_write', name: 'Write', input: { file_path: join(home, 'owner.token'), content: 'ato_replaced\n' } };
  const cat = { id: 'toolu_home_cat', name: 'Bash', input: { command: `cat ${join(home, 'owner.json')}`, description: 'read the owner file' } };
  const search = { id: 'toolu_home_search', name: 'ToolSearch', input: { query: 'select:mcp__agentteam__message_send', max_results: 1 } };
  const send = { id: 'toolu_home_send', name: 'mcp__agentteam__message_send', input: { target: 'channel:general', content: 'home read:' } };
  // The model posts whatever its three reads returned (as the attack did).
  const leak = (b: ModelRequest) => JSON.stringify(toolResults(b).filter((r) => [read.id, write.id, cat.id].includes(r.tool_use_id)).map((r) => r.content)).slice(0, 2000);
  model.script = scriptSteps([
    { call: read, offered: offers('Read') },
    { call: write, offered: offers('Write') },
    { call: cat, offered: offers('Bash') },
    { call: search, offered: offers('ToolSearch') },
    { call: send, offered: (b) => toolResults(b).some((r) => r.tool_use_id === search.id), build: (b, c) => ({ ...c, input: { ...(c.input as object), content: `home read: ${leak(b)}` } }) },
  ]);
  try {
    const run = await runTurn('claude', creds, turnInput('AGENTTEAM-HOME-claude'), MODEL_ENV_FOR(model), DEADLINE_MS, { env: isolatedEnv().env, cwd }, home);
    const r = await run.p.done;
    assert.equal(r.code, 0, `claude turn failed; stderr: ${run.p.stderr().slice(-800)}`);
    for (const c of [read, write, cat]) {
      const res = await model.waitForToolResult(c.id, 1);
      t.diagnostic(`claude ${c.name} of the home: ${JSON.stringify(res).slice(0, 240)}`);
      assert.ok(!JSON.stringify(res).includes(secret), `${c.name} returned the owner token`);
    }
    assert.equal((await model.waitForToolResult(read.id, 1)).is_error, true, 'Read of owner.token was not denied');
    assert.equal((await model.waitForToolResult(cat.id, 1)).is_error, true, 'cat of owner.json was not denied');
    assert.equal((await model.waitForToolResult(write.id, 1)).is_error, true, 'Write of owner.token was not denied');
    assert.equal(readFileSync(join(home, 'owner.token'), 'utf8'), `${secret}\n`);
    assert.notEqual((await model.waitForToolResult(send.id, 1)).is_error, true);
    await assertHomeNotLeaked(rd, model, 'clhome', secret);
  } finally {
    model.script = undefined;
    await creds.release();
  }
});
