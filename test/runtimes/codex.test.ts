// Opt-in real-runtime checks (`npm run test:runtimes`): Codex app-server launched by the real daemon lists and calls the agentteam tools.
//
// Codex is started exactly as a user would: `agentteam runtime start --agent x --runtime codex -- codex … app-server`
// against a real daemon; the codex driver inserts its `-c` overrides. The daemon does not relay stdin, so the `codex`
// the daemon runs is codex-app-server.mjs behind an executable named `codex` (see codexShim): the driver treats it as
// codex, and the shim hands its argv untouched to the real codex and speaks the app-server JSON-RPC. The daemon's
// throwaway HOME/CODEX_HOME isolate Codex's config and login; its model provider (user `-c` flags) is a loopback capture.
// Every process is bounded by a deadline and killed by process group. Reading a runtime's token from /proc is Linux-only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execAs, findMessage, holdCredentials, README_PROMPT, readmeSetup, runTurn, scriptSteps, turnInput } from './turns.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliJson } from '../harness.js';
import { useRuntimeSuite } from './suite.js';
import { assertHomeNotLeaked, plantHome } from './home-wall.js';
import { AGENTTEAM_TOOLS, captureRuntimeEnv, directLaunch, pingBothRoutes, runtimeStart, stopAndCheckDead, type RuntimeDaemon } from './daemon-runs.js';
import { bytes, schemaBounds, CACHE_BIN, isolatedEnv, lineFrom, mkdtempSync, runBounded, workdir } from './harness.js';
import { scriptOneCall, writeCodexCaptureProvider, type ModelCapture, type ModelTool } from './model-capture.js';

const DEADLINE_MS = 90_000;
const MEM_WRITE = `mkdir -p "$AGENTTEAM_MEMORY_DIR/notes" && printf '%s\\n' '- 2026-12-01: release notes task (codex)' > "$AGENTTEAM_MEMORY_DIR/notes/release.md"`;
const HOOK_WRITE = `printf 'x' > "$AGENTTEAM_MEMORY_DIR/.git/hooks/pre-commit"`;
const SHIM = join(import.meta.dirname, 'codex-app-server.mjs');
let rd: RuntimeDaemon;
let model: ModelCapture;
let dead: { token: string; mcpUrl: string } | undefined;

// The env var named by the capture provider's env_key (below); no API accepts it.
useRuntimeSuite(() => ({ CAPTURE_MODEL_KEY: 'not-a-key' }), (s) => ({ rd, model } = s));

const writeCaptureProvider = (codexHome: string): void => writeCodexCaptureProvider(codexHome, model.url);

/** Installs the shim behind an executable named `codex`, so the daemon's codex driver recognises it as codex. */
function codexShim(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'agentteam-rt-shim-')), 'bin');
  mkdirSync(dir);
  const shim = join(dir, 'codex');
  writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' '${SHIM}' '${join(CACHE_BIN, 'codex')}' "$@"\n`);
  chmodSync(shim, 0o755);
  return shim;
}

type StatusTool = { name: string; description?: string; inputSchema?: unknown; annotations?: { readOnlyHint?: boolean } };
interface CodexResult {
  status: { data: { name: string; authStatus: string; tools: Record<string, StatusTool>; toolsError?: string | null }[] };
  shellDefault: { exitCode: number; stdout: string };
  shellNetwork: { exitCode: number; stdout: string };
  threadStart: { ok?: true; error?: unknown };
  toolCall?: { content: { type: string; text?: string }[]; isError?: boolean | null; error?: unknown };
}

test('codex: app-server launched by the daemon (driver -c overrides) lists the agentteam tools, calls them directly and for a scripted model; Exec works from its default sandbox; token dies with it', async (t) => {
  const agentId = (await rd.d.addAgent('cx', 'codex')).id;
  // The scripted model calls message_send the way Codex offers it: function `message_send` in namespace `mcp__agentteam`.
  const call = { id: 'call_agentteam_codex', name: 'message_send', namespace: 'mcp__agentteam', input: { target: 'channel:general', content: 'hello from the codex model' } };
  model.script = scriptOneCall(call);
  const watch = captureRuntimeEnv(rd.d.pid, rd.mcpPath(agentId), DEADLINE_MS);
  // The user's own -c flags point Codex's model at the capture (a custom Responses-API provider keyed by a dummy env var).
  const provider = [
    ['model_provider', '"capture"'],
    ['model_providers.capture.name', '"capture"'],
    ['model_providers.capture.base_url', JSON.stringify(`${model.url}/v1`)],
    ['model_providers.capture.env_key', '"CAPTURE_MODEL_KEY"'],
    ['model_providers.capture.wire_api', '"responses"'],
    ['model', '"gpt-5.1-codex"'],
    // Headless: no approval round-trips for the scripted tool call (the shim answers no server requests).
    ['approval_policy', '"never"'],
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
    t.diagnostic(`codex mcpServerStatus/list: authStatus=${s.authStatus} tools=${JSON.stringify(Object.keys(s.tools))} definitions ${bytes(defs)} B`);
    assert.equal(s.authStatus, 'bearerToken');
    assert.deepEqual(Object.keys(s.tools).sort(), [...AGENTTEAM_TOOLS]);
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
    // Codex's default command sandbox has no network; the driver's permission profile lets it reach the daemon's
    // loopback host through Codex's managed proxy, so `agentteam exec` works there as with network on.
    for (const out of [r.shellDefault.stdout, r.shellNetwork.stdout]) {
      assert.match(out, /^exec-exit 0$/m);
      assert.match(out, /"ok":\s*true/);
    }

    t.diagnostic(`codex mcpServer/tool/call message_send: ${JSON.stringify(r.toolCall).slice(0, 300)}`);
    assert.equal(r.threadStart.ok, true, JSON.stringify(r.threadStart));
    assert.ok(r.toolCall && !r.toolCall.error && r.toolCall.isError !== true, JSON.stringify(r.toolCall));
    const ls = cliJson(await rd.d.run(['message', 'ls', '--target', 'channel:general']));
    const mine = (ls.messages as { content: string; author: { name: string } }[]).find((m) => m.content === 'hello from codex');
    assert.equal(mine?.author.name, 'cx');

    // The shim's model turn: what Codex 0.169.0 sends its model — one Responses-API namespace per MCP server, raw names inside.
    const req = await model.waitFor((b) => (b.tools ?? []).some((x) => x.name === 'mcp__agentteam'), DEADLINE_MS);
    const tools = req.tools ?? [];
    const ns = tools.find((x) => x.name === 'mcp__agentteam') as (ModelTool & { type?: string; tools?: ModelTool[] }) | undefined;
    const inner = ns?.tools ?? [];
    t.diagnostic(
      `codex model request: ${bytes(req)} B, ${tools.length} tools ${bytes(tools)} B [${tools.map((x) => x.name ?? x.type).join(',')}]; ` +
        `agentteam namespace ${bytes(ns)} B, ${schemaBounds(ns)} schema bounds (${inner.map((x) => `${x.name}=${bytes(x)}`).join(', ')})`,
    );
    assert.equal(ns?.type, 'namespace');
    assert.deepEqual(inner.map((x) => x.name).sort(), [...AGENTTEAM_TOOLS]);
    assert.ok(!tools.some((x) => x.name?.startsWith('mcp__agentteam__')));

    // The model's call goes through Codex's MCP client to the daemon; the output is what the model reads back.
    const result = await model.waitForToolResult(call.id, DEADLINE_MS);
    t.diagnostic(`codex function_call_output for message_send (model-visible): ${bytes(result.content)} B ${JSON.stringify(result.content).slice(0, 300)}`);
    assert.match(JSON.stringify(result.content), /channel:general/);
    const after = cliJson(await rd.d.run(['message', 'ls', '--target', 'channel:general']));
    const byModel = (after.messages as { content: string; author: { name: string } }[]).find((m) => m.content === call.input.content);
    assert.equal(byModel?.author.name, 'cx');

    assert.deepEqual(await pingBothRoutes(rd, agentId, env.AGENTTEAM_MCP_TOKEN!), [200, 200]);
    dead = await stopAndCheckDead(rd, p, agentId, env);
  } finally {
    model.script = undefined;
    p.kill();
  }
});

test("codex: handed its exited run's token directly, is refused by the daemon and lists no agentteam tool", async (t) => {
  assert.ok(dead, 'the codex run must have finished');
  const x = await directLaunch('codex', dead.token, dead.mcpUrl);
  const p = runBounded(process.execPath, [SHIM, x.plan.command, ...x.plan.args, 'app-server'], { env: { ...x.env, AGENTTEAM_TEST_CODEX_STATUS_ONLY: '1' }, cwd: x.cwd, timeoutMs: DEADLINE_MS });
  const line = await lineFrom(p, (s) => s.startsWith('RESULT '));
  p.kill();
  await p.done;
  assert.ok(line, `the codex shim printed no RESULT; stderr: ${p.stderr().slice(-500)}`);
  const s = (JSON.parse(line.slice(7)) as CodexResult).status.data.find((d) => d.name === 'agentteam');
  t.diagnostic(`codex with a dead token: ${JSON.stringify(s && { authStatus: s.authStatus, tools: Object.keys(s.tools), toolsError: s.toolsError?.slice(0, 160) })}`);
  assert.ok(s);
  assert.deepEqual(Object.keys(s.tools), []);
});

test('codex turn via app-server (default model, code mode): developer instructions reach the model; exec_command `agentteam exec task create` and agentteam message_send (a gated dynamic tool of the helper) succeed; other hosts stay blocked; the thread resumes', async (t) => {
  const creds = await holdCredentials(rd, 'cxt');
  const marker = 'AGENTTEAM-STABLE-codex-91d4';
  const reply = 'codex turn reply: the task is created';
  // What a code-mode model writes: one `exec` script calling nested tools, the deferred MCP tool included.
  const js = [
    `const made = await tools.exec_command({ cmd: "agentteam exec task create '{\\"title\\":\\"release notes (codex)\\"}'" });`,
    'text(JSON.stringify({ made }));',
    `let other; try { other = await tools.exec_command({ cmd: "curl -s -m 5 -o /dev/null -w '%{http_code}' http://127.0.0.2:9/" }); } catch (e) { other = { blocked: String(e) }; }`,
    'text(JSON.stringify({ other }));',
    // Its Memory clone is writable from the sandbox; the clone's .git is not.
    `let mem; try { mem = await tools.exec_command({ cmd: ${JSON.stringify(MEM_WRITE)} }); } catch (e) { mem = { failed: String(e) }; }`,
    'text(JSON.stringify({ mem }));',
    `let hook; try { hook = await tools.exec_command({ cmd: ${JSON.stringify(HOOK_WRITE)} }); } catch (e) { hook = { failed: String(e) }; }`,
    'text(JSON.stringify({ hook }));',
    `const sent = await tools.agentteam__message_send({ target: "channel:general", content: ${JSON.stringify(reply)} });`,
    'text(JSON.stringify({ sent }));',
  ].join('\n');
  const call = { id: 'call_codex_turn', name: 'exec', custom: true, input: js };
  model.script = scriptSteps([{ call, offered: (b) => JSON.stringify(b.input ?? '').includes('"name":"exec"') }]);
  const { env } = isolatedEnv();
  writeCaptureProvider(env.CODEX_HOME!);
  const place = { env, cwd: workdir() };
  try {
    const run = await runTurn('codex', creds, turnInput(marker), { CAPTURE_MODEL_KEY: 'not-a-key' }, DEADLINE_MS, place);
    const r = await run.p.done;
    assert.equal(r.code, 0, `codex turn failed; stdout: ${run.p.stdout().slice(-400)} stderr: ${run.p.stderr().slice(-800)}`);
    const first = model.requests.find((q) => JSON.stringify(q.body.input ?? '').includes(marker))?.body;
    assert.ok(first, 'the developer instructions never reached the model');
    const developer = (first.input as { role?: string; content?: unknown }[]).filter((i) => i.role === 'developer');
    assert.ok(developer.some((i) => JSON.stringify(i.content ?? '').includes(marker)), 'the instructions are not a developer message');
    t.diagnostic(`codex default model: ${String(first.model)}; tools offered as ${JSON.stringify(first.input).includes('Deferred tool namespaces') ? 'deferred namespaces' : 'definitions'}`);
    // The script's output as the model reads it back, JSON nested in JSON: compared without its escapes.
    const out = JSON.stringify((await model.waitForToolResult(call.id, 1)).content).replace(/\\/g, '');
    t.diagnostic(`codex exec script output: ${out.slice(0, 600)}`);
    assert.match(out, /"made":\{[^}]*"exit_code":0/, 'agentteam exec did not succeed from the sandbox');
    assert.match(out, /"ok":true/);
    assert.match(out, /tsk[1-9]\d+/);
    assert.match(out, /blocked/, 'a loopback address other than the daemon host was reachable');
    assert.match(out, /channel:general/);
    assert.equal(readFileSync(join(creds.env.AGENTTEAM_MEMORY_DIR!, 'notes', 'release.md'), 'utf8'), '- 2026-12-01: release notes task (codex)\n', `the Memory clone was not writable: ${out.slice(0, 800)}`);
    assert.equal(existsSync(join(creds.env.AGENTTEAM_MEMORY_DIR!, '.git', 'hooks', 'pre-commit')), false, 'the clone\'s .git was writable');
    assert.equal((await findMessage(rd, 'channel:general', reply))?.author.name, 'cxt');
    assert.match(JSON.stringify(await execAs(creds, ['task', 'list'])), /release notes \(codex\)/);
    const threadId = run.plan.resumeIdFrom?.(run.p.stdout());
    assert.ok(threadId, run.p.stdout());

    model.script = () => ({ text: 'resumed' });
    const before = model.requests.length;
    const next = await runTurn('codex', creds, turnInput(marker, { prompt: 'second turn', resumeId: threadId }), { CAPTURE_MODEL_KEY: 'not-a-key' }, DEADLINE_MS, place);
    assert.equal((await next.p.done).code, 0, next.p.stderr().slice(-800));
    assert.equal(next.plan.resumeIdFrom?.(next.p.stdout()), threadId);
    const resumed = model.requests.slice(before).at(-1)?.body;
    assert.ok(resumed && JSON.stringify(resumed.input).includes(reply), 'the resumed thread lost the first turn');
  } finally {
    model.script = undefined;
    await creds.release();
  }
});

test('codex turn with the daemon home denied in its permission profile: `cat` of owner.token and owner.json fail in the sandbox while agentteam exec and the Memory clone still work; the token reaches neither the model nor anything posted', async (t) => {
  const creds = await holdCredentials(rd, 'cxhome');
  const home = rd.d.home;
  const secret = rd.d.ownerToken();
  const js = [
    `let tok; try { tok = await tools.exec_command({ cmd: ${JSON.stringify(`cat ${join(home, 'owner.token')}; cat ${join(home, 'owner.json')}; ls ${join(home, 'run', 'credentials')}`)} }); } catch (e) { tok = { failed: String(e) }; }`,
    'text(JSON.stringify({ tok }));',
    `const made = await tools.exec_command({ cmd: "agentteam exec task create '{\\"title\\":\\"home denied (codex)\\"}'" });`,
    'text(JSON.stringify({ made }));',
    `let mem; try { mem = await tools.exec_command({ cmd: ${JSON.stringify(MEM_WRITE)} }); } catch (e) { mem = { failed: String(e) }; }`,
    'text(JSON.stringify({ mem }));',
    // The model posts what its read returned (as the attack did).
    'const sent = await tools.agentteam__message_send({ target: "channel:general", content: "home read: " + JSON.stringify(tok).slice(0, 1500) });',
    'text(JSON.stringify({ sent }));',
  ].join('\n');
  const call = { id: 'call_codex_home', name: 'exec', custom: true, input: js };
  model.script = scriptSteps([{ call, offered: (b) => JSON.stringify(b.input ?? '').includes('"name":"exec"') }]);
  const { env } = isolatedEnv();
  writeCaptureProvider(env.CODEX_HOME!);
  try {
    const run = await runTurn('codex', creds, turnInput('AGENTTEAM-HOME-codex'), { CAPTURE_MODEL_KEY: 'not-a-key' }, DEADLINE_MS, { env, cwd: workdir() }, home);
    const r = await run.p.done;
    assert.equal(r.code, 0, `codex turn failed; stdout: ${run.p.stdout().slice(-400)} stderr: ${run.p.stderr().slice(-800)}`);
    const out = JSON.stringify((await model.waitForToolResult(call.id, 1)).content).replace(/\\/g, '');
    t.diagnostic(`codex exec script output: ${out.slice(0, 700)}`);
    assert.ok(!out.includes(secret), 'the owner token was readable from the sandbox');
    assert.match(out, /No such file or directory|Permission denied/);
    assert.match(out, /"made":\{[^}]*"exit_code":0/, 'agentteam exec (its token folder) no longer works from the sandbox');
    assert.equal(readFileSync(join(creds.env.AGENTTEAM_MEMORY_DIR!, 'notes', 'release.md'), 'utf8'), '- 2026-12-01: release notes task (codex)\n', `the Memory clone was not writable: ${out.slice(0, 800)}`);
    await assertHomeNotLeaked(rd, model, 'cxhome', secret);
  } finally {
    model.script = undefined;
    await creds.release();
  }
});

test("README example `runtime start --agent demo --runtime codex -- codex exec 'read #general and answer there'` reads and answers in #general as written", async () => {
  await readmeSetup(rd);
  writeCaptureProvider(rd.env.CODEX_HOME!);
  const js = [
    'const read = await tools.mcp__agentteam__message_history_read({ target: "channel:general" });',
    'text(JSON.stringify(read));',
    'await tools.mcp__agentteam__message_send({ target: "channel:general", content: "codex read: hello demo" });',
  ].join('\n');
  const call = { id: 'call_codex_readme', name: 'exec', custom: true, input: js };
  model.script = scriptSteps([{ call, offered: (b) => JSON.stringify(b.input ?? '').includes('"name":"exec"') }]);
  try {
    // As in the README, run from a checkout: `codex exec` refuses a workdir outside a git repository (its own guard).
    const cwd = workdir();
    assert.equal(spawnSync('git', ['init', '-q', cwd]).status, 0);
    const p = runtimeStart(rd, ['--agent', 'demo', '--runtime', 'codex', '--', 'codex', 'exec', README_PROMPT], { cwd, timeoutMs: DEADLINE_MS });
    const r = await p.done;
    assert.equal(r.code, 0, `the README example failed; stderr: ${p.stderr().slice(-800)}`);
    assert.match(JSON.stringify((await model.waitForToolResult(call.id, 1)).content), /hello demo/);
    assert.equal((await findMessage(rd, 'channel:general', 'codex read: hello demo'))?.author.name, 'demo');
  } finally {
    model.script = undefined;
  }
});
