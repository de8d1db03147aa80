// Owns runtime launch and lifetime: activate the authorization, assemble env, spawn in its own process group, revoke on exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { RuntimeCatalog } from '../catalog/types.js';
import { assembleRuntimeEnv } from '../authz/env.js';
import { providerEnv } from './provider-env.js';
import type { RuntimeAuthorizationStore } from '../authz/store.js';
import { ensurePrivateDir } from '../home/home.js';
import { assertProfileOutsideHome } from '../home/home-wall.js';
import { MEMORY_DIR_ENV } from './drivers/types.js';
import { writeMemorySkill } from '../memorysearch/skill.js';
import type { AgentProfile, RuntimeKindName } from '../home/profiles.js';
import { systemClock, type Clock, type Timer } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { execRootPath } from '../shared/routes.js';
import { processStartTime } from '../shared/proc.js';
import { prepareRuntime, type RuntimePlan } from './drivers/index.js';
import type { TurnInput } from './drivers/types.js';
import type { CurrentTurn } from '../wire/mcp/handler.js';
import { writeRunRecord } from './orphans.js';
import { MCP_CHILD_TOKEN_ENV } from './drivers/types.js';

/** Where a turn's session metadata goes while its runtime lives (the daemon's SessionMetadata). */
export interface TurnMetadataSink {
  set(authorizationId: string, turn: CurrentTurn): void;
  clear(authorizationId: string): void;
}

export interface LaunchRequest {
  agent: AgentProfile;
  runtime: RuntimeKindName;
  workdir: string;
  command: string[];
  /** Daemon-provided canonical variables for this launch (e.g. AGENTTEAM_TURN_*), appended after the scrub. */
  canonicalEnv?: Readonly<Record<string, string>>;
  /** One turn of an agent session: the driver delivers it; `meta` becomes the authorization's session metadata. */
  turn?: { input: TurnInput; meta: CurrentTurn };
}

/** How one turn's runtime ended. `failure` is set when it never started (missing runtime, launch error). */
export interface TurnRun {
  runId: string | null;
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  resumeId?: string;
  failure?: { kind: 'runtime_missing' | 'start_failed'; message: string };
}

export type RunEvent = { type: 'started'; runId: string; pid: number } | { type: 'stdout' | 'stderr'; data: string } | { type: 'exit'; code: number | null; signal: string | null };

export interface RunRecord {
  runId: string;
  agentId: string;
  agentName: string;
  runtime: RuntimeKindName;
  pid: number;
  /** The process start time (clock ticks since boot, from /proc) that tells this process from a later one with its pid. */
  processStartTime: string | null;
  workdir: string;
  startedAt: string;
  status: 'running' | 'exited';
  exitCode: number | null;
  signal: string | null;
}

export interface LauncherDeps {
  store: RuntimeAuthorizationStore;
  serverId: () => string;
  /** Base URL of the local API server, e.g. http://127.0.0.1:PORT */
  daemonUrl: () => string;
  /** Directory holding the canonical `agentteam` binary; first on every runtime's PATH. */
  binDir: string;
  runtimesDir: string;
  /** The agent's RuntimeCatalog, fetched and verified at authorization (built-ins + its Extension snapshot). */
  catalog: (agent: AgentProfile) => RuntimeCatalog | Promise<RuntimeCatalog>;
  /** Every secret value the daemon holds (owner/admin tokens, server credentials); no runtime env var may carry one. */
  daemonSecrets?: () => Iterable<string>;
  log: Logger;
  /** The current turn per runtime authorization, set for turn launches and cleared at exit. */
  metadata?: TurnMetadataSink;
  /** The agents' Memory clones: created if needed before launch; the folder is handed to the runtime. */
  memory?: { ensure(agentId: string): { dir: string; git: boolean } };
  /** Stop grace and shutdown bounds run on this clock; the system clock by default. */
  clock?: Clock;
  /** The AgentTeam home: checked against every launch's workdir and allowed paths, and denied in each runtime's config. */
  home: string;
}

/** Stdout kept per turn for the driver's resumeIdFrom: the head and the tail (a runtime's session id is in one of them). */
const TURN_STDOUT_HEAD = 1024 * 1024;
const TURN_STDOUT_TAIL = 3 * 1024 * 1024;

interface Live {
  record: RunRecord;
  child: ChildProcess;
  sinks: Set<(e: RunEvent) => void>;
  exited: Promise<void>;
}

const STOP_GRACE_MS = 5000;
const KEEP_EXITED = 100;

export class RuntimeLauncher {
  private live = new Map<string, Live>();
  private exited: RunRecord[] = [];
  private generations = new Map<string, number>();

  constructor(private readonly deps: LauncherDeps) {}

  /** Launches one runtime process; `sink` receives its output and exit. Fails closed: any error revokes what was issued. */
  async launch(req: LaunchRequest, sink?: (e: RunEvent) => void): Promise<RunRecord> {
    return (await this.start(req, sink)).record;
  }

  /**
   * Runs one turn to its end: the plan's stdin is written and closed, stdout is kept (bounded) for the driver's
   * resumeIdFrom, and past `timeoutMs` the process group is stopped (SIGTERM, then SIGKILL after the grace period).
   */
  async runTurn(req: LaunchRequest, timeoutMs: number, onStarted?: (r: { runId: string; pid: number; processStartTime: string | null }) => void): Promise<TurnRun> {
    let head = '';
    let tail = '';
    let code: number | null = null;
    let signal: string | null = null;
    const sink = (e: RunEvent) => {
      if (e.type === 'stdout') {
        if (head.length < TURN_STDOUT_HEAD) head += e.data;
        else tail = (tail + e.data).slice(-TURN_STDOUT_TAIL);
      } else if (e.type === 'exit') (code = e.code), (signal = e.signal);
    };
    let started;
    try {
      started = await this.start(req, sink);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const missing = /needs the "|needs a command|ENOENT/.test(message);
      return { runId: null, code: null, signal: null, timedOut: false, failure: { kind: missing ? 'runtime_missing' : 'start_failed', message } };
    }
    onStarted?.({ runId: started.record.runId, pid: started.record.pid, processStartTime: started.record.processStartTime });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void this.stop(started.record.runId).catch(() => undefined);
    }, timeoutMs);
    timer.unref();
    await started.exited;
    clearTimeout(timer);
    const out: TurnRun = { runId: started.record.runId, code, signal, timedOut };
    const id = started.plan.resumeIdFrom?.(tail ? `${head}\n${tail}` : head);
    if (id) out.resumeId = id;
    return out;
  }

  private async start(req: LaunchRequest, sink?: (e: RunEvent) => void): Promise<{ record: RunRecord; plan: RuntimePlan; exited: Promise<void> }> {
    const { deps } = this;
    // Checked at every start, so a profile written earlier or edited by hand cannot run inside or around the home.
    assertProfileOutsideHome({ workdir: req.workdir, allowedPaths: req.agent.allowedPaths }, deps.home);
    const runId = newId('run');
    const serverId = deps.serverId();
    const gen = (this.generations.get(req.agent.id) ?? 0) + 1;
    this.generations.set(req.agent.id, gen);
    const active = await deps.store.activate({
      serverId,
      agentId: req.agent.id,
      sessionId: newId('ses'),
      runId,
      workdir: req.workdir,
      processGeneration: gen,
      runtimeKind: req.runtime,
      catalog: await deps.catalog(req.agent),
    });
    const runDir = join(deps.runtimesDir, runId);
    // Session metadata lives beside the authorization, never inside it (the Exec authorization carries no launch target).
    if (req.turn) deps.metadata?.set(active.info.id, req.turn.meta);
    let child: ChildProcess;
    let plan: RuntimePlan;
    try {
      ensurePrivateDir(runDir);
      const base = deps.daemonUrl();
      const mcpUrl = `${base}/api/internal/mcp/servers/${serverId}/agents/${req.agent.id}`;
      const env = assembleRuntimeEnv(process.env, {
        execBaseUrl: `${base}${execRootPath(serverId, req.agent.id)}`,
        execTokenFile: active.execTokenFile,
        mcpUrl,
        mcpToken: active.mcpToken,
        binDir: deps.binDir,
        ...(req.canonicalEnv ? { canonical: req.canonicalEnv } : {}),
        ...(deps.daemonSecrets ? { daemonSecrets: deps.daemonSecrets() } : {}),
      });
      // Appended after the scrub (the AGENTTEAM_MCP* family is daemon-owned, so no inherited copy survives it).
      env[MCP_CHILD_TOKEN_ENV] = active.mcpChildToken;
      if (deps.memory) {
        // Appended after the scrub: the one canonical pointer to this agent's own clone (never another agent's).
        const clone = deps.memory.ensure(req.agent.id);
        env[MEMORY_DIR_ENV] = clone.dir;
        if (!clone.git) deps.log.warn({ agentId: req.agent.id }, 'git is not installed: the memory clone is a plain folder');
        installSkill(req.runtime, req.workdir, deps.log);
      }
      plan = await prepareRuntime(req.runtime, { command: req.command, workdir: req.workdir, runDir, mcpUrl, env, home: deps.home, ...(req.turn ? { turn: req.turn.input } : {}) });
      // plan.envAdd (e.g. AGENTTEAM_TURN_*) is appended after the scrubbed, canonical env.
      // PWD names the workdir too: an inherited PWD (the daemon's folder) would make runtimes that read it (OpenCode) work there.
      child = await spawnChild(plan.command, plan.args, { cwd: req.workdir, env: { ...env, ...(plan.envAdd ?? {}), ...providerEnv(req.agent), PWD: req.workdir }, stdin: plan.stdin });
    } catch (e) {
      // Launch abort: revoke before cleanup, then remove the run dir.
      await deps.store.revoke(active.info.id, 'abort');
      deps.metadata?.clear(active.info.id);
      rmSync(runDir, { recursive: true, force: true });
      throw e instanceof AppError ? e : new AppError('invalid_input', `could not start the runtime: ${(e as Error).message}`);
    }
    // Persisted before anything else, so a daemon killed from here on leaves a record the next one finds.
    const startTime = processStartTime(child.pid!);
    try {
      writeRunRecord(runDir, { runId, pid: child.pid!, processStartTime: startTime });
    } catch (e) {
      deps.log.error({ err: String(e), runId }, 'could not persist the run record');
    }
    const record: RunRecord = {
      runId,
      agentId: req.agent.id,
      agentName: req.agent.name,
      runtime: req.runtime,
      pid: child.pid!,
      processStartTime: startTime,
      workdir: req.workdir,
      startedAt: new Date().toISOString(),
      status: 'running',
      exitCode: null,
      signal: null,
    };
    const sinks = new Set<(e: RunEvent) => void>();
    if (sink) sinks.add(sink);
    const emit = (e: RunEvent) => {
      for (const s of sinks) s(e);
    };
    child.stdout!.setEncoding('utf8').on('data', (d: string) => emit({ type: 'stdout', data: d }));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => emit({ type: 'stderr', data: d }));
    let resolveExit!: () => void;
    const exited = new Promise<void>((r) => (resolveExit = r));
    const entry: Live = { record, child, sinks, exited };
    this.live.set(runId, entry);
    child.once('exit', (code, signal) => {
      void (async () => {
        // Process exit: revoke every generation and the MCP credential, drain, then remove files.
        await deps.store.revoke(active.info.id, 'exit').catch((err) => deps.log.error({ err: String(err), runId }, 'revoke failed'));
        deps.metadata?.clear(active.info.id);
        rmSync(runDir, { recursive: true, force: true });
        record.status = 'exited';
        record.exitCode = code;
        record.signal = signal;
        this.live.delete(runId);
        this.exited.push(record);
        if (this.exited.length > KEEP_EXITED) this.exited.shift();
        deps.log.info({ runId, code, signal }, 'runtime exited');
        emit({ type: 'exit', code, signal });
        resolveExit();
      })();
    });
    deps.log.info({ runId, agentId: req.agent.id, runtime: req.runtime, pid: child.pid, authorizationId: active.info.id }, 'runtime started');
    emit({ type: 'started', runId, pid: child.pid! });
    return { record, plan, exited };
  }

  /** Detaches an output sink (a foreground client went away). */
  detach(runId: string, sink: (e: RunEvent) => void): void {
    this.live.get(runId)?.sinks.delete(sink);
  }

  list(): RunRecord[] {
    return [...[...this.live.values()].map((l) => l.record), ...this.exited];
  }

  /** The run ids of this agent's live runtime processes. */
  runIdsOf(agentId: string): string[] {
    return [...this.live.values()].filter((l) => l.record.agentId === agentId).map((l) => l.record.runId);
  }

  /** Whether a runtime process of this agent is live now. */
  runtimeLive(agentId: string): boolean {
    for (const l of this.live.values()) if (l.record.agentId === agentId) return true;
    return false;
  }

  get running(): number {
    return this.live.size;
  }

  /** Stops a runtime: SIGTERM to its process group, SIGKILL after a grace period; resolves once it exited and was revoked. */
  async stop(runId: string): Promise<RunRecord> {
    const l = this.live.get(runId);
    if (!l) {
      const done = this.exited.find((r) => r.runId === runId);
      if (done) return done;
      throw new AppError('not_found', `no runtime ${runId}`);
    }
    killGroup(l.child, 'SIGTERM');
    const t = (this.deps.clock ?? systemClock).setTimer(STOP_GRACE_MS, () => killGroup(l.child, 'SIGKILL'));
    await l.exited;
    t.cancel();
    return l.record;
  }

  /** Stops every runtime (daemon shutdown), bounded by timeoutMs. */
  async shutdown(timeoutMs: number): Promise<void> {
    const all = [...this.live.keys()].map((id) => this.stop(id).catch(() => undefined));
    let timer: Timer | undefined;
    await Promise.race([Promise.all(all), new Promise((r) => (timer = (this.deps.clock ?? systemClock).setTimer(timeoutMs, () => r(undefined))))]);
    timer?.cancel();
  }
}

/** The memory-maintenance skill goes with the memory tool; a workdir that cannot take it does not stop the launch. */
function installSkill(kind: string, workdir: string, log: Logger): void {
  try {
    writeMemorySkill(kind, workdir);
  } catch (e) {
    log.warn({ code: (e as NodeJS.ErrnoException).code ?? 'error' }, 'could not write the memory-maintenance skill into the working directory');
  }
}

function killGroup(child: ChildProcess, sig: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, sig);
  } catch {
    try {
      child.kill(sig);
    } catch {
      /* already gone */
    }
  }
}

function spawnChild(command: string, args: string[], opts: { cwd: string; env: Record<string, string>; stdin?: string | undefined }): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    // Own process group (detached) so stop/shutdown reaches the whole tree; stdin is only the plan's text, then closed.
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    child.once('spawn', () => {
      if (opts.stdin !== undefined) {
        child.stdin!.on('error', () => undefined); // a runtime that exits without reading its stdin is not an error here
        child.stdin!.end(opts.stdin, 'utf8');
      }
      resolve(child);
    });
    child.once('error', (e) => reject(new AppError('invalid_input', `could not start ${command}: ${(e as NodeJS.ErrnoException).code ?? e.message}`)));
  });
}
