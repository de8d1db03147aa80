// Owns the suite's turn runs: live runtime credentials from the real daemon, a driver's turn plan run as the launcher
// runs it (stdin written and closed), and the scripted model side of one turn (an Exec shell command, then message_send).
import assert from 'node:assert/strict';
import { prepareRuntime, type RuntimeKind, type RuntimePlan } from '../../src/runtime/drivers/index.js';
import type { TurnInput } from '../../src/runtime/drivers/types.js';
import { cliJson } from '../harness.js';
import { captureRuntimeEnv, runtimeStart, type RuntimeDaemon } from './daemon-runs.js';
import { CACHE_BIN, isolatedEnv, privateRunDir, runBounded, workdir, type Bounded } from './harness.js';
import { toolResults, type ModelReply, type ModelRequest, type ScriptedCall } from './model-capture.js';

/** Names the daemon injects into every runtime (README "How a runtime connects"), plus the PATH it puts agentteam on. */
const INJECTED = ['AGENTTEAM_MCP_URL', 'AGENTTEAM_MCP_TOKEN', 'AGENTTEAM_EXEC_BASE_URL', 'AGENTTEAM_EXEC_TOKEN_FILE'] as const;

export interface Credentials {
  agentId: string;
  /** The injected variables and the daemon's PATH head (its agentteam bin dir), as a turn's runtime gets them. */
  env: Record<string, string>;
  mcpUrl: string;
  release(): Promise<void>;
}

/**
 * A live runtime authorization for agent `name`: the daemon launches a holder (`sleep`) and the suite reads the
 * injected variables from the holder's /proc environ. The credentials live as long as the holder; the turn's real
 * runtime is then run with them and the driver's turn plan, as the launcher will run it.
 */
export async function holdCredentials(rd: RuntimeDaemon, name: string): Promise<Credentials> {
  const agentId = (await rd.d.addAgent(name, 'command')).id;
  const watch = captureRuntimeEnv(rd.d.pid, rd.mcpPath(agentId), 60_000);
  const holder = runtimeStart(rd, ['--agent', name, '--runtime', 'command', '--', 'sleep', '600'], { cwd: workdir(), timeoutMs: 10 * 60_000 });
  const { env: seen } = await watch.catch((e: unknown) => {
    holder.kill();
    throw e;
  });
  const env: Record<string, string> = {};
  for (const k of INJECTED) env[k] = seen[k]!;
  // The daemon puts its agentteam bin dir first on PATH; a turn's runtime gets the same head.
  env.AGENTTEAM_BIN_DIR = seen.PATH!.split(':')[0]!;
  // The agent's Memory clone, which the drivers make writable.
  assert.ok(seen.AGENTTEAM_MEMORY_DIR, 'the daemon gave the runtime no AGENTTEAM_MEMORY_DIR');
  env.AGENTTEAM_MEMORY_DIR = seen.AGENTTEAM_MEMORY_DIR;
  return {
    agentId,
    env,
    mcpUrl: seen.AGENTTEAM_MCP_URL!,
    release: async () => {
      holder.kill();
      await holder.done;
    },
  };
}

export interface TurnRun {
  plan: RuntimePlan;
  p: Bounded;
  /** The HOME-isolated env and workdir of this run: pass it to the next turn, as an agent keeps its home and workdir. */
  place: { env: Record<string, string>; cwd: string };
}

/**
 * Prepares `kind` for `turn` through prepareRuntime and runs the plan with the credentials and `extraEnv`, in a fresh
 * throwaway HOME and workdir, or in `place` (a previous turn's, so the runtime finds its own session there); `home` is
 * the AgentTeam home the driver denies.
 */
export async function runTurn(
  kind: RuntimeKind,
  creds: Credentials,
  turn: TurnInput,
  extraEnv: Record<string, string>,
  timeoutMs: number,
  place?: TurnRun['place'],
  home?: string,
): Promise<TurnRun> {
  const base = place?.env ?? isolatedEnv().env;
  const cwd = place?.cwd ?? workdir();
  const { AGENTTEAM_BIN_DIR, ...injected } = creds.env;
  const env = { ...base, ...extraEnv, ...injected, PATH: `${AGENTTEAM_BIN_DIR}:${base.PATH}` };
  // `home`: the AgentTeam home the driver denies in the runtime's own permissions (the launcher passes the daemon's).
  const plan = await prepareRuntime(kind, { command: [], workdir: cwd, runDir: privateRunDir(), mcpUrl: creds.mcpUrl, env, turn, ...(home ? { home } : {}) });
  assert.ok(plan.command === process.execPath || plan.command.startsWith(CACHE_BIN), `unexpected turn command ${plan.command}`);
  const p = runBounded(plan.command, plan.args, { env: { ...env, ...(plan.envAdd ?? {}) }, cwd, timeoutMs, input: plan.stdin ?? '' });
  return { plan, p, place: { env: base, cwd } };
}

/** A turn input whose stable part carries `marker`, so the test can find it in what the model receives. */
export function turnInput(marker: string, over: Partial<TurnInput> = {}): TurnInput {
  return {
    turnId: 'trn_runtime_test',
    target: 'channel:general',
    targetType: 'channel',
    messageId: 'msg_runtime_test',
    stable: `${marker}\nYou are an AgentTeam agent. Reply with message_send to the exact target you are given. Run AgentTeam actions with \`agentteam exec <domain> <action> '<json>'\`.`,
    prompt: 'Human wrote in channel:general: create a task for the release notes and tell me its id. Reply with message_send to exactly channel:general.',
    ...over,
  };
}

/**
 * The model's side of one turn, in order: step i is issued once step i-1's result came back, and only by a request
 * that offers it (`offered`; other requests, e.g. a title request, are held); an issued call is not issued again.
 * After the last result the model ends the turn with text.
 */
export function scriptSteps(
  steps: { call: ScriptedCall; offered: (b: ModelRequest) => boolean; build?: (b: ModelRequest, call: ScriptedCall) => ScriptedCall }[],
): (b: ModelRequest) => ModelReply | undefined {
  const issued = new Set<string>();
  return (b) => {
    const done = new Set(toolResults(b).map((r) => r.tool_use_id));
    const step = steps.find((s) => !done.has(s.call.id));
    if (!step) return { text: 'done' };
    if (issued.has(step.call.id) || !step.offered(b)) return undefined;
    issued.add(step.call.id);
    // `build` fills the call from what the model has seen so far (e.g. a task id an earlier result returned).
    return { toolUse: step.build ? step.build(b, step.call) : step.call };
  };
}

/** The first `tsk…` id in the tool results a request carries back to the model. */
export function taskIdIn(b: ModelRequest): string | undefined {
  return /tsk[1-9][0-9]+/.exec(JSON.stringify(toolResults(b).map((r) => r.content)))?.[0];
}

/** The newest message in `target` with `content`, as the owner lists it. */
export async function findMessage(rd: RuntimeDaemon, target: string, content: string): Promise<{ content: string; author: { name: string } } | undefined> {
  const ls = cliJson(await rd.d.run(['message', 'ls', '--target', target]));
  return (ls.messages as { content: string; author: { name: string } }[]).find((m) => m.content === content);
}

/** `agentteam exec ARGS` as the agent, with the held credentials (the daemon's agentteam, its Exec variables). */
export async function execAs(creds: Credentials, args: string[]): Promise<unknown> {
  const { env: base } = isolatedEnv();
  const p = runBounded(`${creds.env.AGENTTEAM_BIN_DIR}/agentteam`, ['exec', ...args], {
    env: { ...base, AGENTTEAM_EXEC_BASE_URL: creds.env.AGENTTEAM_EXEC_BASE_URL!, AGENTTEAM_EXEC_TOKEN_FILE: creds.env.AGENTTEAM_EXEC_TOKEN_FILE! },
    cwd: workdir(),
    timeoutMs: 30_000,
  });
  const r = await p.done;
  assert.equal(r.code, 0, p.stderr());
  return JSON.parse(p.stdout());
}

/** The README's runtime example prompt, and what the scripted model answers in #general. */
export const README_PROMPT = 'read #general and answer there';

/** `agentteam agent add --name demo` (as in the README) on `rd`, and a human message in #general to read. */
export async function readmeSetup(rd: RuntimeDaemon): Promise<string> {
  await rd.d.addAgent('demo', 'command');
  const post = await rd.d.run(['message', 'post', '--target', 'channel:general', 'hello demo']);
  assert.equal(post.code, 0, post.stderr);
  return 'demo';
}
