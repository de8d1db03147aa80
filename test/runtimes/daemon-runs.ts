// Owns the suite's real-daemon plumbing: a daemon whose env isolates the runtimes, `agentteam runtime start` runs, and token-death checks.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { prepareRuntime, type RuntimeKind, type RuntimePlan } from '../../src/runtime/drivers/index.js';
import { BIN, TestDaemon, cliJson, http } from '../harness.js';
import { CACHE_BIN, isolatedEnv, privateRunDir, runBounded, workdir, type Bounded } from './harness.js';

/**
 * Ambient credentials of the runtimes under test. The daemon passes its env to every runtime, so these are unset for the
 * daemon (undefined drops a name from a spawned env) and no run can reach a real model account. Only names, never values.
 */
const AMBIENT_RUNTIME_CREDENTIALS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN', 'OPENAI_API_KEY', 'CODEX_API_KEY', 'OPENROUTER_API_KEY'];

export interface RuntimeDaemon {
  d: TestDaemon;
  serverId: string;
  env: Record<string, string>;
  mcpPath(agentId: string): string;
  dispose(): Promise<void>;
}

/** `agentteam init` with a throwaway HOME (and CODEX_HOME/XDG dirs) and the runtime cache first on PATH. */
export async function startRuntimeDaemon(extra: Record<string, string> = {}): Promise<RuntimeDaemon> {
  const { env } = isolatedEnv();
  const daemonEnv: Record<string, string | undefined> = { ...env, ...extra };
  for (const name of AMBIENT_RUNTIME_CREDENTIALS) if (!(name in extra)) daemonEnv[name] = undefined;
  // TestDaemon types its env as strings; an undefined value removes the inherited name when the CLI spawns.
  const d = new TestDaemon(undefined, daemonEnv as Record<string, string>);
  await d.start();
  const serverId = cliJson(await d.run(['daemon', 'status'])).server.serverId as string;
  return {
    d,
    serverId,
    env: Object.fromEntries(Object.entries(daemonEnv).filter((e): e is [string, string] => e[1] !== undefined)),
    mcpPath: (agentId) => `/api/internal/mcp/servers/${serverId}/agents/${agentId}`,
    dispose: () => d.dispose(),
  };
}

/** `agentteam runtime start …` in the foreground, as a user types it; its own process group, killed at the deadline. */
export function runtimeStart(rd: RuntimeDaemon, args: string[], o: { cwd: string; timeoutMs: number }): Bounded {
  const base = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  const env: Record<string, string> = { ...base, ...rd.env, AGENTTEAM_HOME: rd.d.home };
  for (const name of AMBIENT_RUNTIME_CREDENTIALS) if (!(name in rd.env)) delete env[name];
  return runBounded(process.execPath, [BIN, 'runtime', 'start', ...args], { env, cwd: o.cwd, timeoutMs: o.timeoutMs });
}

function parentPid(pid: string): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Field 4, after the parenthesised command name (which may itself hold spaces or parentheses).
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

function environOf(pid: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const kv of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const i = kv.indexOf('=');
    if (i > 0) env[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return env;
}

/**
 * Watches /proc (Linux) for the daemon's direct child whose AGENTTEAM_MCP_URL ends in `mcpPath` and returns that
 * process's environment. The daemon never reveals a runtime's token, so the suite reads it from the runtime process
 * itself, as any process of the same user could; it is used only to prove the token dies with the runtime.
 */
export function captureRuntimeEnv(daemonPid: number, mcpPath: string, timeoutMs: number): Promise<{ pid: number; env: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => {
      clearInterval(poll);
      reject(new Error(`no child of the daemon with AGENTTEAM_MCP_URL …${mcpPath} appeared`));
    }, timeoutMs).unref();
    const poll = setInterval(() => {
      for (const pid of readdirSync('/proc')) {
        if (!/^\d+$/.test(pid)) continue;
        try {
          if (parentPid(pid) !== daemonPid) continue;
          const env = environOf(pid);
          if (!env.AGENTTEAM_MCP_URL?.endsWith(mcpPath)) continue;
          clearInterval(poll);
          clearTimeout(deadline);
          resolve({ pid: Number(pid), env });
          return;
        } catch {
          /* gone, or not ours */
        }
      }
    }, 5).unref();
  });
}

/** Polls `agentteam runtime ls` until the agent's run has exited; returns that run record. */
export async function waitRunExited(rd: RuntimeDaemon, agentId: string, timeoutMs = 30_000): Promise<{ status: string; exitCode: number | null; signal: string | null; pid: number }> {
  for (let waited = 0; ; waited += 200) {
    const runs = cliJson(await rd.d.run(['runtime', 'ls'])) as { agentId: string; status: string; exitCode: number | null; signal: string | null; pid: number }[];
    const mine = runs.filter((r) => r.agentId === agentId);
    if (mine.length > 0 && mine.every((r) => r.status === 'exited')) return mine.at(-1)!;
    if (waited >= timeoutMs) throw new Error(`the run of ${agentId} did not exit: ${JSON.stringify(mine)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** HTTP statuses of an MCP `ping` with `token` on the canonical route and the legacy alias. */
export async function pingBothRoutes(rd: RuntimeDaemon, agentId: string, token: string): Promise<number[]> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: `127.0.0.1:${rd.d.port}` };
  const out: number[] = [];
  for (const path of [rd.mcpPath(agentId), `/mcp/agentteam/${rd.serverId}/${agentId}`]) {
    out.push((await http(rd.d.port, 'POST', path, { headers, body })).status);
  }
  return out;
}

/** The agentteam tool names the daemon serves, sorted. */
export const AGENTTEAM_TOOLS = ['kb_fetch', 'kb_search', 'memory_search', 'message_attachment_read', 'message_history_read', 'message_react', 'message_send'] as const;

/** The daemon's own tools/list answer (result.tools) for `agentId` with `token`. */
export async function toolsList(rd: RuntimeDaemon, agentId: string, token: string): Promise<{ name: string }[]> {
  const listed = await http(rd.d.port, 'POST', rd.mcpPath(agentId), {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json', host: `127.0.0.1:${rd.d.port}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  assert.equal(listed.status, 200, listed.body);
  return (JSON.parse(listed.body) as { result: { tools: { name: string }[] } }).result.tools;
}

/**
 * Stops the run as a user would (the foreground CLI goes away; a no-op when the runtime already ended), waits for the
 * daemon to see the runtime exit, and checks that its credentials died with it. Returns the dead MCP token and URL.
 */
export async function stopAndCheckDead(rd: RuntimeDaemon, p: Bounded, agentId: string, env: Record<string, string>): Promise<{ token: string; mcpUrl: string }> {
  p.kill();
  await p.done;
  const run = await waitRunExited(rd, agentId);
  assert.equal(run.status, 'exited');
  const token = env.AGENTTEAM_MCP_TOKEN!;
  assert.deepEqual(await pingBothRoutes(rd, agentId, token), [403, 403], 'the MCP token outlived its runtime');
  assert.equal(existsSync(env.AGENTTEAM_EXEC_TOKEN_FILE!), false, 'the Exec token file outlived its runtime');
  assert.ok(!rd.d.allText().includes(token), 'the daemon wrote the MCP token down');
  return { token, mcpUrl: env.AGENTTEAM_MCP_URL! };
}

/** Prepares `kind` directly (not through the daemon), wired by prepareRuntime to the daemon's endpoint with `token`. */
export async function directLaunch(kind: RuntimeKind, token: string, mcpUrl: string): Promise<{ plan: RuntimePlan; env: Record<string, string>; cwd: string }> {
  const { env } = isolatedEnv();
  env.AGENTTEAM_MCP_TOKEN = token;
  const cwd = workdir();
  const plan = await prepareRuntime(kind, { command: [], workdir: cwd, runDir: privateRunDir(), mcpUrl, env });
  assert.ok(plan.command.startsWith(CACHE_BIN), `expected the cached ${kind} binary, got ${plan.command}`);
  for (const f of plan.files) assert.ok(!readFileSync(f, 'utf8').includes(token), `${f} holds the token`);
  return { plan, env: { ...env, ...(plan.envAdd ?? {}) }, cwd };
}
