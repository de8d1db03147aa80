// Opt-in real-runtime checks (`npm run test:runtimes`): Claude Code, Codex and OpenCode, launched by the real daemon, see the real agentteam tools.
//
// Each runtime is started exactly as a user would: `agentteam runtime start --agent x --runtime <kind> -- <cmd>` against
// a real daemon (`agentteam init`, embedded SQLite server). The daemon passes its env to runtimes, so its throwaway HOME
// (plus CODEX_HOME/XDG dirs) isolates the runtimes' own config and logins, and the pinned runtime cache (harness.ts
// PINNED, npm-installed once into .tmp/runtimes) is first on its PATH. No runtime is logged in to a model; Claude's model
// API points at a loopback capture (model-capture.ts) that records the tools it would send and never answers.
// Every process is bounded by a deadline and killed by process group. Reading a runtime's token from /proc is Linux-only.
// Kimi CLI is not verified here: it is a Python tool (PyPI `kimi-cli`), not an npm package; its driver is unit-tested only.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliJson, http } from '../harness.js';
import { prepareRuntime, type RuntimeKind } from '../../src/runtime/drivers/index.js';
import { AGENTTEAM_TOOLS, captureRuntimeEnv, pingBothRoutes, runtimeStart, startRuntimeDaemon, waitRunExited, type RuntimeDaemon } from './daemon-runs.js';
import { CACHE_BIN, cleanupTemp, ensureRuntimes, isolatedEnv, mkdtempSync, plain, privateRunDir, runBounded, type Bounded } from './harness.js';
import { startModelCapture, type ModelCapture, type ModelReply, type ModelRequest, type ModelTool } from './model-capture.js';

const DEADLINE_MS = 90_000;
const SORTED_TOOLS = [...AGENTTEAM_TOOLS].sort();
let rd: RuntimeDaemon;
let model: ModelCapture;
/** Tokens of runtimes that have exited, by kind: each is later presented by the runtime itself (last test). */
const deadTokens = new Map<RuntimeKind, { token: string; mcpUrl: string }>();

before(
  async () => {
    ensureRuntimes();
    model = await startModelCapture();
    // A syntactically plausible key that no API accepts; it only makes Claude send its request to the capture.
    rd = await startRuntimeDaemon({ ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-ant-agentteam-runtime-tests-not-a-key', AGENTTEAM_TEST_MODEL_KEY: 'not-a-key' });
  },
  { timeout: 11 * 60_000 },
);
after(async () => {
  await rd?.dispose();
  await model?.close();
  cleanupTemp();
});

const workdir = () => mkdtempSync(join(tmpdir(), 'agentteam-rt-work-'));

/** Resolves with the first stdout line matching `pred`, or null when the process ends first. */
function lineFrom(p: Bounded, pred: (line: string) => boolean): Promise<string | null> {
  return new Promise((resolve) => {
    const scan = () => {
      const line = p.stdout().split('\n').find(pred);
      if (line) resolve(line);
    };
    p.child.stdout!.on('data', scan);
    void p.done.then(() => {
      scan();
      resolve(null);
    });
  });
}

/** Stops the run as a user would (the foreground CLI goes away), waits for the daemon to see it exit, and checks the token died. */
async function stopAndCheckDead(kind: RuntimeKind, p: Bounded, agentId: string, env: Record<string, string>): Promise<void> {
  p.kill();
  await p.done;
  const run = await waitRunExited(rd, agentId);
  assert.equal(run.status, 'exited');
  const token = env.AGENTTEAM_MCP_TOKEN!;
  assert.deepEqual(await pingBothRoutes(rd, agentId, token), [403, 403], 'the MCP token outlived its runtime');
  assert.equal(existsSync(env.AGENTTEAM_EXEC_TOKEN_FILE!), false, 'the Exec token file outlived its runtime');
  assert.ok(!rd.d.allText().includes(token), 'the daemon wrote the MCP token down');
  deadTokens.set(kind, { token, mcpUrl: env.AGENTTEAM_MCP_URL! });
}

/** Bytes of the agentteam tool definitions as JSON: what a runtime forwards to its model, before its own wrapping. */
const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: unknown;
  is_error?: boolean;
}

const toolResults = (b: ModelRequest): ToolResultBlock[] =>
  ((b.messages ?? []) as { content?: unknown }[]).flatMap((m) => (Array.isArray(m.content) ? (m.content as ToolResultBlock[]) : [])).filter((c) => c?.type === 'tool_result');

/** The model's side of one tool call: call `call` when offered, then end the turn once its result came back. */
function scriptOneCall(call: { id: string; name: string; input: unknown }): (b: ModelRequest) => ModelReply | undefined {
  return (b) => {
    if (toolResults(b).some((r) => r.tool_use_id === call.id)) return { text: 'done' };
    if ((b.tools ?? []).some((x) => x.name === call.name)) return { toolUse: call };
    return undefined; // e.g. a title request: held
  };
}

/** Waits for the model request carrying the tool_result of call `id`: exactly what the runtime shows the model. */
async function toolResult(id: string): Promise<ToolResultBlock> {
  const b = await model.waitFor((x) => toolResults(x).some((r) => r.tool_use_id === id), DEADLINE_MS);
  return toolResults(b).find((r) => r.tool_use_id === id)!;
}

/** The daemon's own tools/list answer (result.tools) for `agentId` with `token`. */
async function toolsList(daemon: RuntimeDaemon, agentId: string, token: string): Promise<{ name: string }[]> {
  const listed = await http(daemon.d.port, 'POST', daemon.mcpPath(agentId), {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json', host: `127.0.0.1:${daemon.d.port}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  assert.equal(listed.status, 200, listed.body);
  return (JSON.parse(listed.body) as { result: { tools: { name: string }[] } }).result.tools;
}

interface ClaudeRun {
  p: Bounded;
  agentId: string;
  env: Record<string, string>;
  init: { mcp_servers: { name: string; status: string }[]; tools: string[] };
}

/** `agentteam runtime start --runtime claude -- claude -p hi …` on `daemon`; resolves once Claude printed its init line. */
async function startClaude(daemon: RuntimeDaemon, name: string, extra: string[] = []): Promise<ClaudeRun> {
  const agentId = (await daemon.d.addAgent(name, 'claude')).id;
  const watch = captureRuntimeEnv(daemon.d.pid, daemon.mcpPath(agentId), DEADLINE_MS);
  // The driver inserts --mcp-config=<run dir file> right after `claude`; the rest is the user's command line.
  const args = ['--agent', name, '--runtime', 'claude', '--workdir', workdir(), '--', 'claude', '-p', 'hi', ...extra, '--strict-mcp-config', '--output-format', 'stream-json', '--verbose'];
  const p = runtimeStart(daemon, args, { cwd: workdir(), timeoutMs: DEADLINE_MS });
  try {
    const { env } = await watch;
    const initLine = await lineFrom(p, (s) => s.includes('"subtype":"init"'));
    assert.ok(initLine, `claude printed no init line; stderr: ${p.stderr().slice(-500)}`);
    return { p, agentId, env, init: JSON.parse(initLine) as ClaudeRun['init'] };
  } catch (e) {
    p.kill();
    throw e;
  }
}

const CLAUDE_NAMES = SORTED_TOOLS.map((n) => `mcp__agentteam__${n}`);

test('claude: launched by the daemon, connects to its MCP endpoint and lists mcp__agentteam__<tool>; the model gets them as deferred names; token dies with it', async (t) => {
  const c = await startClaude(rd, 'cl');
  try {
    const visible = c.init.tools.filter((n) => n.startsWith('mcp__'));
    t.diagnostic(`claude init: mcp_servers=${JSON.stringify(c.init.mcp_servers)} mcp tools=${JSON.stringify(visible)} (of ${c.init.tools.length} tools)`);
    assert.equal(c.init.mcp_servers.find((s) => s.name === 'agentteam')?.status, 'connected');
    assert.deepEqual(visible.sort(), CLAUDE_NAMES);

    // Claude 2.1.328 defers MCP tools behind ToolSearch: the first model request names them in text, with no schemas.
    const req = await model.waitFor((b) => CLAUDE_NAMES.every((n) => JSON.stringify(b).includes(n)), DEADLINE_MS);
    const inTools = (req.tools ?? []).filter((x) => x.name?.startsWith('mcp__agentteam__'));
    assert.deepEqual(inTools, [], 'with tool search on, no agentteam schema is sent up front');
    assert.ok((req.tools ?? []).some((x) => x.name === 'ToolSearch'));
    t.diagnostic(`claude first model request (tool search on): ${bytes(req)} B, tools=${(req.tools ?? []).length} [${(req.tools ?? []).map((x) => x.name).join(',')}]; agentteam: 4 deferred names only (${CLAUDE_NAMES.join('\n').length} B)`);

    // Still running (waiting for its model): the token it connected with is live on both routes.
    assert.deepEqual(await pingBothRoutes(rd, c.agentId, c.env.AGENTTEAM_MCP_TOKEN!), [200, 200]);
    const served = await toolsList(rd, c.agentId, c.env.AGENTTEAM_MCP_TOKEN!);
    assert.deepEqual(served.map((x) => x.name).sort(), SORTED_TOOLS);
    t.diagnostic(`daemon tools/list result.tools: ${bytes(served)} B (${served.map((x) => `${x.name}=${bytes(x)}`).join(', ')})`);
    assert.ok(!c.p.stdout().includes(c.env.AGENTTEAM_MCP_TOKEN!) && !c.p.stderr().includes(c.env.AGENTTEAM_MCP_TOKEN!));
    await stopAndCheckDead('claude', c.p, c.agentId, c.env);
  } finally {
    c.p.kill();
  }
});

test('claude: with ENABLE_TOOL_SEARCH=false the model gets the four agentteam definitions; a scripted tool_use makes Claude call message_send through the daemon', async (t) => {
  const daemon = await startRuntimeDaemon({ ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-ant-agentteam-runtime-tests-not-a-key', ENABLE_TOOL_SEARCH: 'false' });
  const call = { id: 'toolu_agentteam_claude', name: 'mcp__agentteam__message_send', input: { target: 'channel:general', content: 'hello from claude' } };
  model.script = scriptOneCall(call);
  try {
    // -p runs deny MCP tools unless allowed; a user allows ours the same way.
    const c = await startClaude(daemon, 'cl2', ['--allowedTools', call.name]);
    try {
      const req = await model.waitFor((b) => (b.tools ?? []).some((x) => x.name?.startsWith('mcp__agentteam__')), DEADLINE_MS);
      const tools = req.tools ?? [];
      const ours = tools.filter((x) => x.name.startsWith('mcp__agentteam__'));
      assert.deepEqual(ours.map((x) => x.name).sort(), CLAUDE_NAMES);
      for (const x of ours) assert.equal(typeof x.description, 'string');
      t.diagnostic(
        `claude model request (tool search off): ${bytes(req)} B, ${tools.length} tools ${bytes(tools)} B; agentteam ${ours.length} definitions ${bytes(ours)} B ` +
          `(${ours.map((x) => `${x.name}=${bytes(x)}`).join(', ')})`,
      );
      const result = await toolResult(call.id);
      t.diagnostic(`claude tool_result for message_send (model-visible): ${bytes(result)} B ${JSON.stringify(result).slice(0, 300)}`);
      assert.match(JSON.stringify(result.content), /channel:general/);
      assert.notEqual(result.is_error, true);
      const r = await c.p.done;
      assert.equal(r.code, 0, `claude -p did not finish cleanly; stderr: ${c.p.stderr().slice(-500)}`);
      assert.match(c.p.stdout(), /"result":"done"/);
      const ls = cliJson(await daemon.d.run(['message', 'ls', '--target', 'channel:general']));
      const sent = (ls.messages as { content: string; author: { name: string } }[]).find((m) => m.content === call.input.content);
      assert.equal(sent?.author.name, 'cl2');
      const run = await waitRunExited(daemon, c.agentId);
      assert.equal(run.exitCode, 0);
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

/** Installs the codex shim behind an executable named `codex`, so the daemon's codex driver treats it as codex. */
function codexShim(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'agentteam-rt-shim-')), 'bin');
  mkdirSync(dir);
  const shim = join(dir, 'codex');
  const script = join(import.meta.dirname, 'codex-app-server.mjs');
  writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' '${script}' '${join(CACHE_BIN, 'codex')}' "$@"\n`);
  chmodSync(shim, 0o755);
  return shim;
}

interface CodexResult {
  status: { data: { name: string; authStatus: string; tools: Record<string, { name: string; description?: string; inputSchema?: unknown; annotations?: { readOnlyHint?: boolean } }> }[] };
  shellDefault: { exitCode: number; stdout: string };
  shellNetwork: { exitCode: number; stdout: string };
  threadStart: { ok?: true; error?: unknown };
  toolCall?: { content: { type: string; text?: string }[]; isError?: boolean | null; structuredContent?: unknown; error?: unknown };
}

test('codex: app-server launched by the daemon (with the driver-inserted -c overrides) lists and calls the agentteam tools; Exec works from its sandbox with network; token dies with it', async (t) => {
  const agentId = (await rd.d.addAgent('cx', 'codex')).id;
  const watch = captureRuntimeEnv(rd.d.pid, rd.mcpPath(agentId), DEADLINE_MS);
  // The user's own -c flags point Codex's model at the capture (a custom Responses-API provider keyed by a dummy env var).
  const provider = [
    ['model_provider', '"capture"'],
    ['model_providers.capture.name', '"capture"'],
    ['model_providers.capture.base_url', JSON.stringify(`${model.url}/v1`)],
    ['model_providers.capture.env_key', '"AGENTTEAM_TEST_MODEL_KEY"'],
    ['model_providers.capture.wire_api', '"responses"'],
    ['model', '"gpt-5.1-codex"'],
  ].flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  const p = runtimeStart(rd, ['--agent', 'cx', '--runtime', 'codex', '--workdir', workdir(), '--', codexShim(), ...provider, 'app-server'], { cwd: workdir(), timeoutMs: DEADLINE_MS });
  try {
    const { env } = await watch;
    const line = await lineFrom(p, (s) => s.startsWith('RESULT '));
    assert.ok(line, `the codex shim printed no RESULT; stderr: ${p.stderr().slice(-800)}`);
    const r = JSON.parse(line.slice(7)) as CodexResult;
    const s = r.status.data.find((d) => d.name === 'agentteam');
    assert.ok(s, `agentteam missing from mcpServerStatus/list: ${JSON.stringify(r.status).slice(0, 400)}`);
    const defs = Object.values(s.tools);
    t.diagnostic(`codex mcpServerStatus/list: authStatus=${s.authStatus} tools=${JSON.stringify(Object.keys(s.tools))} definitions ${bytes(defs)} B (${defs.map((d) => `${d.name}=${bytes(d)}`).join(', ')})`);
    assert.equal(s.authStatus, 'bearerToken');
    assert.deepEqual(Object.keys(s.tools).sort(), SORTED_TOOLS);
    for (const d of defs) assert.equal(typeof d.annotations?.readOnlyHint, 'boolean', `${d.name} lacks readOnlyHint as codex sees it`);

    t.diagnostic(`codex command/exec, default sandbox: ${JSON.stringify(r.shellDefault.stdout)}`);
    t.diagnostic(`codex command/exec, workspaceWrite+network: ${JSON.stringify(r.shellNetwork.stdout)}`);
    for (const out of [r.shellDefault.stdout, r.shellNetwork.stdout]) {
      assert.match(out, /^AGENTTEAM_EXEC_BASE_URL=<set>$/m);
      assert.match(out, /^AGENTTEAM_EXEC_TOKEN_FILE=<set>$/m);
      // The driver's shell_environment_policy.set blanks the MCP bearer for model-run commands.
      assert.match(out, /^AGENTTEAM_MCP_TOKEN=$/m);
      assert.ok(!out.includes(env.AGENTTEAM_MCP_TOKEN!));
    }
    // Codex's default command sandbox has no network, loopback included: `agentteam exec` cannot reach the daemon (exit 5).
    assert.match(r.shellDefault.stdout, /^exec-exit 5$/m);
    assert.match(r.shellNetwork.stdout, /^exec-exit 0$/m);
    assert.match(r.shellNetwork.stdout, /"ok":\s*true/);

    t.diagnostic(`codex thread/start: ${JSON.stringify(r.threadStart).slice(0, 300)}; mcpServer/tool/call message_send: ${JSON.stringify(r.toolCall).slice(0, 300)}`);
    assert.equal(r.threadStart.ok, true);
    assert.ok(r.toolCall && !r.toolCall.error && r.toolCall.isError !== true, JSON.stringify(r.toolCall));
    const ls = cliJson(await rd.d.run(['message', 'ls', '--target', 'channel:general']));
    const mine = (ls.messages as { content: string; author: { name: string } }[]).find((m) => m.content === 'hello from codex');
    assert.equal(mine?.author.name, 'cx');

    // The model turn: what Codex sends its model for our inventory.
    const req = await model.waitFor((b) => (b.tools ?? []).some((x) => x.name === 'mcp__agentteam'), DEADLINE_MS);
    const tools = req.tools ?? [];
    // Codex 0.169.0 sends MCP tools as one Responses-API namespace per server, holding the raw tool names.
    const ns = tools.find((x) => x.name === 'mcp__agentteam') as (ModelTool & { type?: string; tools?: ModelTool[] }) | undefined;
    const inner = ns?.tools ?? [];
    t.diagnostic(
      `codex model request: ${bytes(req)} B, ${tools.length} tools ${bytes(tools)} B [${tools.map((x) => x.name).join(',')}]; ` +
        `agentteam namespace ${bytes(ns ?? null)} B (${inner.map((x) => `${x.name}=${bytes(x)}`).join(', ')})`,
    );
    assert.equal(ns?.type, 'namespace');
    assert.deepEqual(inner.map((x) => x.name).sort(), SORTED_TOOLS);
    assert.ok(!tools.some((x) => x.name?.startsWith('mcp__agentteam__')));

    assert.deepEqual(await pingBothRoutes(rd, agentId, env.AGENTTEAM_MCP_TOKEN!), [200, 200]);
    await stopAndCheckDead('codex', p, agentId, env);
  } finally {
    p.kill();
  }
});

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
    await stopAndCheckDead('opencode', p, agentId, env);
  } finally {
    p.kill();
  }
});

test('opencode: `opencode run` launched by the daemon sends agentteam_<tool> definitions to the model and calls message_send on a scripted tool_use', async (t) => {
  const agentId = (await rd.d.addAgent('oc2', 'opencode')).id;
  const call = { id: 'toolu_agentteam_opencode', name: 'agentteam_message_send', input: { target: 'channel:general', content: 'hello from opencode' } };
  model.script = scriptOneCall(call);
  const watch = captureRuntimeEnv(rd.d.pid, rd.mcpPath(agentId), DEADLINE_MS);
  // The AI SDK's Anthropic provider reads ANTHROPIC_BASE_URL/ANTHROPIC_API_KEY from the daemon-passed env: the capture.
  const args = ['--agent', 'oc2', '--runtime', 'opencode', '--workdir', workdir(), '--', 'opencode', 'run', '--model', 'anthropic/claude-sonnet-4-5', 'hi'];
  const p = runtimeStart(rd, args, { cwd: workdir(), timeoutMs: DEADLINE_MS });
  try {
    const { env } = await watch;
    const req = await model.waitFor((b) => (b.tools ?? []).some((x) => x.name?.startsWith('agentteam_')), DEADLINE_MS);
    const tools = req.tools ?? [];
    const ours = tools.filter((x) => x.name.startsWith('agentteam_'));
    t.diagnostic(
      `opencode model request: ${bytes(req)} B, ${tools.length} tools ${bytes(tools)} B [${tools.map((x) => x.name).join(',')}]; ` +
        `agentteam ${ours.length} definitions ${bytes(ours)} B (${ours.map((x) => `${x.name}=${bytes(x)}`).join(', ')})`,
    );
    // OpenCode 1.18.33 names MCP tools <server>_<tool>: not mcp_agentteam_<tool> as src/wire/mcp/naming.ts assumes.
    assert.deepEqual(ours.map((x) => x.name).sort(), SORTED_TOOLS.map((n) => `agentteam_${n}`));
    assert.ok(!tools.some((x) => x.name.startsWith('mcp_agentteam_')));
    const result = await toolResult(call.id);
    t.diagnostic(`opencode tool_result for message_send (model-visible): ${bytes(result)} B ${JSON.stringify(result).slice(0, 300)}`);
    assert.match(JSON.stringify(result.content), /channel:general/);
    const ls = cliJson(await rd.d.run(['message', 'ls', '--target', 'channel:general']));
    const sent = (ls.messages as { content: string; author: { name: string } }[]).find((m) => m.content === call.input.content);
    assert.equal(sent?.author.name, 'oc2');
    const r = await p.done;
    assert.equal(r.timedOut, false);
    await stopAndCheckDead('opencode', p, agentId, env);
  } finally {
    model.script = undefined;
    p.kill();
  }
});

/** Launches `kind` directly (not through the daemon), wired by prepareRuntime to the daemon's real endpoint with `token`. */
async function directLaunch(kind: RuntimeKind, token: string, mcpUrl: string) {
  const { env } = isolatedEnv();
  env.AGENTTEAM_MCP_TOKEN = token;
  const cwd = workdir();
  const plan = await prepareRuntime(kind, { command: [], workdir: cwd, runDir: privateRunDir(), mcpUrl, env });
  assert.ok(plan.command.startsWith(CACHE_BIN), `expected the cached ${kind} binary, got ${plan.command}`);
  for (const f of plan.files) assert.ok(!readFileSync(f, 'utf8').includes(token), `${f} holds the token`);
  return { plan, env: { ...env, ...(plan.envAdd ?? {}) }, cwd };
}

test('each runtime, handed its exited run\'s token directly, is refused by the daemon and offers no agentteam tool', async (t) => {
  assert.deepEqual([...deadTokens.keys()].sort(), ['claude', 'codex', 'opencode'], 'the three runs above must have finished');

  const cl = deadTokens.get('claude')!;
  const c = await directLaunch('claude', cl.token, cl.mcpUrl);
  // The prompt sits right after the inserted flag: it must stay a prompt, not become a second config file.
  const cp = runBounded(c.plan.command, [...c.plan.args, 'x', '-p', '--strict-mcp-config', '--output-format', 'stream-json', '--verbose'], { env: c.env, cwd: c.cwd, timeoutMs: DEADLINE_MS });
  const initLine = await lineFrom(cp, (s) => s.includes('"subtype":"init"'));
  cp.kill();
  await cp.done;
  assert.ok(initLine, `claude printed no init line; stderr: ${cp.stderr().slice(-500)}`);
  const init = JSON.parse(initLine) as ClaudeRun['init'];
  const server = init.mcp_servers.find((s) => s.name === 'agentteam');
  t.diagnostic(`claude with a dead token: ${JSON.stringify(server)}`);
  assert.ok(server && server.status !== 'connected');
  assert.ok(!init.tools.some((n) => n.startsWith('mcp__agentteam__')));

  const cx = deadTokens.get('codex')!;
  const x = await directLaunch('codex', cx.token, cx.mcpUrl);
  const shim = join(import.meta.dirname, 'codex-app-server.mjs');
  const xp = runBounded(process.execPath, [shim, x.plan.command, ...x.plan.args, 'app-server'], { env: { ...x.env, AGENTTEAM_TEST_CODEX_STATUS_ONLY: '1' }, cwd: x.cwd, timeoutMs: DEADLINE_MS });
  const line = await lineFrom(xp, (s) => s.startsWith('RESULT '));
  xp.kill();
  await xp.done;
  assert.ok(line, `the codex shim printed no RESULT; stderr: ${xp.stderr().slice(-500)}`);
  const s = (JSON.parse(line.slice(7)) as CodexResult).status.data.find((d) => d.name === 'agentteam') as CodexResult['status']['data'][number] & { toolsError?: string };
  t.diagnostic(`codex with a dead token: ${JSON.stringify(s && { authStatus: s.authStatus, tools: Object.keys(s.tools), toolsError: s.toolsError?.slice(0, 160) })}`);
  assert.ok(s);
  assert.deepEqual(Object.keys(s.tools), []);

  const oc = deadTokens.get('opencode')!;
  const o = await directLaunch('opencode', oc.token, oc.mcpUrl);
  const op = runBounded(o.plan.command, [...o.plan.args, 'mcp', 'list'], { env: o.env, cwd: o.cwd, timeoutMs: DEADLINE_MS });
  const r = await op.done;
  assert.equal(r.timedOut, false);
  const oline = plain(op.stdout()).split('\n').find((l) => l.includes('agentteam')) ?? '';
  t.diagnostic(`opencode mcp list with a dead token: ${oline.trim()}`);
  assert.ok(oline.length > 0, 'agentteam missing from opencode mcp list');
  assert.doesNotMatch(oline, /connected/);
});
