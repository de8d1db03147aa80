// Opt-in real-runtime checks (`npm run test:runtimes`): each runtime, launched exactly as prepareRuntime says, connects to a bearer-guarded MCP endpoint and sees its tool.
//
// The pinned runtimes (harness.ts PINNED) are npm-installed once into .tmp/runtimes and reused. Every process gets a
// throwaway HOME and is killed (whole process group) at a deadline. No runtime is logged in: each check stops at what
// the runtime reports before it would need a model.
// Kimi CLI is not verified here: it is a Python tool (PyPI `kimi-cli`), not an npm package; its driver is unit-tested only.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareRuntime, type RuntimeKind, type RuntimePlan } from '../../src/runtime/drivers/index.js';
import { CACHE_BIN, cleanupTemp, ensureRuntimes, isolatedEnv, mkdtempSync, plain, privateRunDir, runBounded } from './harness.js';
import { FIXTURE_TOOL, startMcpFixture, type McpFixture } from './mcp-fixture.js';

const DEADLINE_MS = 90_000;
const GOOD = `atk_${'9'.repeat(8)}_${Math.floor(Math.random() * 1e9)}`;

before(() => ensureRuntimes(), { timeout: 11 * 60_000 });
after(() => cleanupTemp());

interface Launch {
  plan: RuntimePlan;
  env: Record<string, string>;
  cwd: string;
  runDir: string;
  fixture: McpFixture;
}

/** Starts the endpoint (always requiring GOOD) and prepares `kind` with `presented` as the runtime's MCP token. */
async function launchPlan(kind: RuntimeKind, presented: string): Promise<Launch> {
  const fixture = await startMcpFixture(GOOD);
  const { env } = isolatedEnv();
  env.AGENTTEAM_MCP_URL = fixture.url;
  env.AGENTTEAM_MCP_TOKEN = presented;
  // The Exec pair as the launcher injects it; the suite only checks it reaches the runtime's command sandbox.
  env.AGENTTEAM_EXEC_BASE_URL = fixture.url;
  env.AGENTTEAM_EXEC_TOKEN_FILE = join(tmpdir(), 'agentteam-rt-no-such-dir', 'exec-token');
  const runDir = privateRunDir();
  const cwd = mkdtempSync(join(tmpdir(), 'agentteam-rt-work-'));
  const plan = await prepareRuntime(kind, { command: [], workdir: cwd, runDir, mcpUrl: fixture.url, env });
  assert.ok(plan.command.startsWith(CACHE_BIN), `expected the cached ${kind} binary, got ${plan.command}`);
  for (const f of plan.files) assert.ok(!readFileSync(f, 'utf8').includes(presented), `${f} holds the token`);
  assert.deepEqual(readdirSync(runDir).map((n) => join(runDir, n)).sort(), [...plan.files].sort());
  return { plan, env: { ...env, ...(plan.envAdd ?? {}) }, cwd, runDir, fixture };
}

/** Runs `claude --mcp-config=F x -p … --output-format stream-json --verbose` and returns its init line (printed before any login is needed). */
async function claudeInit(l: Launch): Promise<{ mcp_servers: { name: string; status: string }[]; tools: string[] }> {
  // The prompt sits right after the inserted flag: it must stay a prompt, not become a second config file.
  const args = [...l.plan.args, 'x', '-p', '--strict-mcp-config', '--output-format', 'stream-json', '--verbose'];
  const p = runBounded(l.plan.command, args, { env: l.env, cwd: l.cwd, timeoutMs: DEADLINE_MS });
  const init = await new Promise<string | null>((resolve) => {
    const scan = () => {
      const line = p.stdout().split('\n').find((s) => s.includes('"subtype":"init"'));
      if (line) resolve(line);
    };
    p.child.stdout!.on('data', scan);
    void p.done.then(() => {
      scan();
      resolve(null);
    });
  });
  p.kill();
  await p.done;
  assert.ok(init, `claude printed no init line; stderr: ${p.stderr().slice(-500)}`);
  return JSON.parse(init) as { mcp_servers: { name: string; status: string }[]; tools: string[] };
}

test('claude: --mcp-config from prepareRuntime connects with the env bearer and lists mcp__agentteam__<tool>', async (t) => {
  const l = await launchPlan('claude', GOOD);
  try {
    const init = await claudeInit(l);
    const server = init.mcp_servers.find((s) => s.name === 'agentteam');
    t.diagnostic(`claude init: mcp_servers=${JSON.stringify(init.mcp_servers)} agentteam tools=${JSON.stringify(init.tools.filter((n) => n.startsWith('mcp__')))}`);
    assert.equal(server?.status, 'connected');
    assert.ok(init.tools.includes(`mcp__agentteam__${FIXTURE_TOOL}`));
    assert.ok(l.fixture.stats.methods.includes('tools/list'));
    assert.equal(l.fixture.stats.refused, 0);
  } finally {
    await l.fixture.close();
  }
});

test('claude: a wrong env token is refused and the tool is not offered', async (t) => {
  const l = await launchPlan('claude', 'wrong-token');
  try {
    const init = await claudeInit(l);
    const server = init.mcp_servers.find((s) => s.name === 'agentteam');
    t.diagnostic(`claude init with a wrong token: ${JSON.stringify(server)}`);
    assert.notEqual(server?.status, 'connected');
    assert.ok(!init.tools.includes(`mcp__agentteam__${FIXTURE_TOOL}`));
    assert.ok(l.fixture.stats.refused > 0);
    assert.equal(l.fixture.stats.authorized, 0);
  } finally {
    await l.fixture.close();
  }
});

interface McpServerStatus {
  name: string;
  authStatus: string;
  tools: Record<string, { name: string }>;
  toolsError?: string | null;
}

/** Speaks the app-server JSON-RPC on stdio: initialize, initialized, then one `method` call; returns its result. */
async function codexCall(l: Launch, method: string, params: object, extraArgs: string[] = []): Promise<unknown> {
  const args = [...l.plan.args, ...extraArgs, 'app-server'];
  const p = runBounded(l.plan.command, args, { env: l.env, cwd: l.cwd, timeoutMs: DEADLINE_MS, stdin: true });
  const send = (m: object) => p.child.stdin!.write(JSON.stringify(m) + '\n');
  const result = await new Promise<unknown>((resolve) => {
    let buf = '';
    p.child.stdout!.on('data', (d: Buffer | string) => {
      buf += d.toString();
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        let msg: { id?: number; result?: unknown; error?: unknown };
        try {
          msg = JSON.parse(line) as typeof msg;
        } catch {
          continue;
        }
        if (msg.id === 1) {
          send({ method: 'initialized' });
          send({ id: 2, method, params });
        } else if (msg.id === 2) resolve(msg.error ? { error: msg.error } : msg.result);
      }
    });
    void p.done.then(() => resolve(null));
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'agentteam-runtime-tests', version: '0.0.0' } } });
  });
  p.kill();
  await p.done;
  assert.ok(result && typeof result === 'object' && !('error' in result), `codex ${method} answered ${JSON.stringify(result)}; stderr: ${p.stderr().slice(-500)}`);
  return result;
}

async function codexStatus(l: Launch): Promise<McpServerStatus[]> {
  return ((await codexCall(l, 'mcpServerStatus/list', {})) as { data: McpServerStatus[] }).data;
}

test('codex: app-server with the -c overrides reports agentteam with its tool and a bearer token', async (t) => {
  const l = await launchPlan('codex', GOOD);
  try {
    const data = await codexStatus(l);
    const s = data.find((d) => d.name === 'agentteam');
    t.diagnostic(`codex mcpServerStatus/list: ${JSON.stringify(data.map((d) => ({ name: d.name, authStatus: d.authStatus, tools: Object.keys(d.tools), toolsError: d.toolsError })))}`);
    assert.ok(s, 'agentteam missing from mcpServerStatus/list');
    assert.equal(s.authStatus, 'bearerToken');
    assert.deepEqual(Object.keys(s.tools), [FIXTURE_TOOL]);
    assert.equal(l.fixture.stats.refused, 0);
    assert.ok(l.fixture.stats.methods.includes('tools/list'));
  } finally {
    await l.fixture.close();
  }
});

test('codex: a wrong env token yields no tools', async (t) => {
  const l = await launchPlan('codex', 'wrong-token');
  try {
    const data = await codexStatus(l);
    const s = data.find((d) => d.name === 'agentteam');
    t.diagnostic(`codex with a wrong token: ${JSON.stringify(s && { authStatus: s.authStatus, tools: Object.keys(s.tools), toolsError: s.toolsError?.slice(0, 160) })}`);
    assert.ok(s);
    assert.deepEqual(Object.keys(s.tools), []);
    assert.ok(l.fixture.stats.refused > 0);
    assert.equal(l.fixture.stats.authorized, 0);
  } finally {
    await l.fixture.close();
  }
});

/**
 * What the model's shell sees inside Codex (`command/exec` runs in the same sandbox as model commands): the env var
 * NAMES matching AGENTTEAM, then whether a loopback POST to the endpoint gets an HTTP answer.
 */
async function codexShellProbe(l: Launch, extraArgs: string[]): Promise<string> {
  const node = process.execPath;
  const script =
    `env | grep -E '^AGENTTEAM_' | sed 's/=.\\{1,\\}$/=<set>/' | sort; ` +
    `"${node}" -e "fetch(process.env.AGENTTEAM_EXEC_BASE_URL,{method:'POST'}).then(r=>console.log('http',r.status)).catch(e=>console.log('neterr',(e.cause&&e.cause.code)||e.message))"`;
  const r = (await codexCall(l, 'command/exec', { command: ['sh', '-c', script], cwd: l.cwd, timeoutMs: 30_000 }, extraArgs)) as { exitCode: number; stdout: string };
  return r.stdout;
}

test('codex: the Exec env (not the MCP bearer) reaches the command sandbox, but loopback is blocked unless the sandbox allows network', async (t) => {
  const l = await launchPlan('codex', GOOD);
  try {
    const dflt = await codexShellProbe(l, []);
    const open = await codexShellProbe(l, ['-c', 'sandbox_mode="workspace-write"', '-c', 'sandbox_workspace_write.network_access=true']);
    t.diagnostic(`codex default sandbox: ${JSON.stringify(dflt)}; workspace-write+network: ${JSON.stringify(open)}`);
    for (const out of [dflt, open]) {
      assert.match(out, /^AGENTTEAM_EXEC_BASE_URL=<set>$/m);
      assert.match(out, /^AGENTTEAM_EXEC_TOKEN_FILE=<set>$/m);
      // The driver's shell_environment_policy.set blanks the MCP bearer for model-run commands.
      assert.match(out, /^AGENTTEAM_MCP_TOKEN=$/m);
      assert.ok(!out.includes(GOOD));
    }
    assert.match(dflt, /^neterr /m);
    // Reached the endpoint (refused: the probe sends no bearer), i.e. loopback got through.
    assert.match(open, /^http 403$/m);
  } finally {
    await l.fixture.close();
  }
});

async function opencodeList(l: Launch): Promise<string> {
  const p = runBounded(l.plan.command, [...l.plan.args, 'mcp', 'list'], { env: l.env, cwd: l.cwd, timeoutMs: DEADLINE_MS });
  const r = await p.done;
  assert.equal(r.timedOut, false, `opencode mcp list did not finish; stderr: ${p.stderr().slice(-500)}`);
  return plain(p.stdout());
}

test('opencode: OPENCODE_CONFIG from prepareRuntime makes `opencode mcp list` connect to agentteam', async (t) => {
  const l = await launchPlan('opencode', GOOD);
  try {
    const out = await opencodeList(l);
    const line = out.split('\n').find((s) => s.includes('agentteam')) ?? '';
    t.diagnostic(`opencode mcp list: ${line.trim()}`);
    assert.match(line, /✓ agentteam\s+connected/);
    assert.ok(l.fixture.stats.methods.includes('tools/list'));
    assert.equal(l.fixture.stats.refused, 0);
  } finally {
    await l.fixture.close();
  }
});

test('opencode: a wrong env token does not connect', async (t) => {
  const l = await launchPlan('opencode', 'wrong-token');
  try {
    const out = await opencodeList(l);
    const line = out.split('\n').find((s) => s.includes('agentteam')) ?? '';
    t.diagnostic(`opencode mcp list with a wrong token: ${line.trim()}`);
    assert.ok(line.length > 0, 'agentteam missing from opencode mcp list');
    assert.doesNotMatch(line, /connected/);
    assert.ok(l.fixture.stats.refused > 0);
    assert.equal(l.fixture.stats.authorized, 0);
  } finally {
    await l.fixture.close();
  }
});
