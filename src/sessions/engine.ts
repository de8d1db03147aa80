// Owns the turn engine: follows the server's turn feed for each hosted agent, queues turns durably, runs each session's
// turns one at a time in order under a global bound, picking round-robin across agents and sessions, and posts
// classified failure, loop and backlog notices as the agent (system notices, rate-bounded per target).
import type { Logger } from 'pino';
import type { AgentProfile } from '../home/profiles.js';
import type { TurnRun } from '../runtime/launcher.js';
import type { ServerApi } from '../server-client/api.js';
import type { Clock, Timer } from '../shared/clock.js';
import { NOTICE_WINDOW_MS, type TurnJournal, type TurnOutcome, type TurnRow } from './journal.js';

/** The dispatcher's bound on concurrent requests; concurrent turn runtimes stay under it. */
export const MAX_TURN_CONCURRENCY = 512;

export interface TurnEngineOptions {
  /** Concurrent turn runtimes across agents (1..MAX_TURN_CONCURRENCY, default 4). */
  maxConcurrent?: number;
  /** Consecutive agent-authored messages in one target after which agents stop answering there (default 6). */
  loopBound?: number;
  /** A turn's runtime is stopped after this long (default 10 min). */
  turnTimeoutMs?: number;
  /** Long-poll wait per feed read (default 5 s). */
  pollWaitMs?: number;
  /** Queued turns per agent beyond which new turns are recorded `skipped: backlog` (default 1,000). */
  maxQueued?: number;
}

/** Default per-agent bound on queued turns. */
export const DEFAULT_MAX_QUEUED = 1000;
/** Session fairness ticks kept in memory; past this the ordering restarts from feed order (only fairness, never a turn, is lost). */
const SESSION_TICKS = 10_000;
/** Sessions of one agent considered per pick, oldest head first (the round-robin ring is over these). */
const SESSION_WINDOW = 256;

export interface TurnEngineDeps {
  journal: TurnJournal;
  clock: Clock;
  log: Logger;
  /** Hosted agents: the daemon holding an agent's credential is the one that follows its turns. */
  agents(): AgentProfile[];
  agent(id: string): AgentProfile | undefined;
  apiOf(agent: AgentProfile): ServerApi;
  /** Runs one turn's runtime to its end (prompt compilation and launch); `started` gets its process once it runs. */
  run(agent: AgentProfile, turn: TurnRow, timeoutMs: number, resumeId: string | undefined, started: (p: StartedProcess) => void): Promise<TurnRun>;
  /** Stops the process group of a runtime a crashed daemon left behind, if `pid` is still that process. */
  killOrphan(pid: number, pidStart: string): boolean;
}

export interface StartedProcess {
  runId: string;
  pid: number;
  processStartTime: string | null;
}

const RETRY_MS = 1000;

export class TurnEngine {
  private readonly max: number;
  private readonly loopBound: number;
  private readonly timeoutMs: number;
  private readonly waitMs: number;
  private readonly maxQueued: number;
  /** Round-robin order: when each agent and each session (agent + target) last had a turn picked (higher = later). */
  private readonly agentTick = new Map<string, number>();
  private readonly sessionTick = new Map<string, number>();
  private tick = 0;
  /** Notices are posted one at a time, so the per-target rate gate is never raced. */
  private notices: Promise<void> = Promise.resolve();
  private readonly followers = new Map<string, AbortController>();
  private readonly busy = new Set<string>();
  private readonly running = new Map<string, Promise<void>>();
  private stopped = false;
  private heldTimer: Timer | undefined;

  constructor(private readonly deps: TurnEngineDeps, opts: TurnEngineOptions = {}) {
    this.max = Math.min(Math.max(1, opts.maxConcurrent ?? 4), MAX_TURN_CONCURRENCY);
    this.loopBound = Math.max(1, opts.loopBound ?? 6);
    this.timeoutMs = opts.turnTimeoutMs ?? 10 * 60_000;
    this.waitMs = opts.pollWaitMs ?? 5000;
    this.maxQueued = Math.max(1, opts.maxQueued ?? DEFAULT_MAX_QUEUED);
  }

  /**
   * Starts the engine. Recovery first: a turn the journal shows `running` was cut off by a stop or crash; it is never
   * re-run (its runtime may already have replied); it is failed as `interrupted` and a notice is posted. Queued turns run.
   */
  start(): void {
    // The runtime of a cut-off turn may outlive the daemon (own process group); stop it before the turn is closed.
    for (const o of this.deps.journal.runningProcesses()) {
      if (this.deps.killOrphan(o.pid, o.pidStart)) this.deps.log.warn({ turnId: o.turnId, pid: o.pid }, 'stopped the runtime of a cut-off turn');
    }
    const n = this.deps.journal.interruptRunning(this.deps.clock.now());
    if (n > 0) this.deps.log.warn({ interrupted: n }, 'turns cut off by the previous daemon were marked interrupted');
    void this.postPendingNotices();
    for (const a of this.deps.agents()) this.follow(a);
    this.pump();
  }

  /** Follows a newly added (or re-enabled) agent; a disabled agent is not followed. */
  follow(agent: AgentProfile): void {
    if (this.stopped || this.followers.has(agent.id) || agent.enabled === false) return;
    const ac = new AbortController();
    this.followers.set(agent.id, ac);
    void this.loop(agent, ac.signal);
    this.pump();
  }

  /** Stops following a removed or disabled agent; its queued turns wait (disabled) or are skipped (removed). */
  unfollow(agentId: string): void {
    this.followers.get(agentId)?.abort();
    this.followers.delete(agentId);
  }

  /** Stops following and waits (bounded by the caller) for running turns; their runtimes are stopped by the launcher. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.heldTimer?.cancel();
    for (const ac of this.followers.values()) ac.abort();
    await Promise.allSettled([...this.running.values()]);
  }

  /** Whether a turn of this agent is running now (the busy set holds `agentId\0target` keys). */
  turnLive(agentId: string): boolean {
    const prefix = `${agentId}\u0000`;
    for (const k of this.busy) if (k.startsWith(prefix)) return true;
    return false;
  }

  get active(): number {
    return this.running.size;
  }

  private async loop(agent: AgentProfile, signal: AbortSignal): Promise<void> {
    const api = this.deps.apiOf(agent);
    while (!signal.aborted) {
      try {
        const after = this.deps.journal.cursor(agent.id);
        const page = await api.turns.read({ after, waitMs: this.waitMs }, { signal });
        if (signal.aborted) return;
        // The page and the cursor are committed together: nothing is queued twice or skipped across a crash.
        const added = this.deps.journal.accept(agent.id, page.turns, page.cursor, this.deps.clock.now(), this.maxQueued);
        if (added.length > 0) this.pump();
        for (const t of added) if (t.outcome === 'backlog' && this.deps.journal.noticeDue(t.turnId)) void this.notify(agent, t, backlogText(agent.name, this.maxQueued));
      } catch (e) {
        if (signal.aborted) return;
        this.deps.log.warn({ agentId: agent.id, err: (e as Error).message }, 'turn feed read failed; retrying');
        await new Promise<void>((r) => this.deps.clock.setTimer(RETRY_MS, r));
      }
    }
  }

  /**
   * Starts queued turns while slots are free: the oldest queued turn of an idle session (agent + target). Fair queue:
   * agents take turns round-robin (the one picked least recently first), and so do one agent's sessions, whatever the
   * size of any one agent's backlog; only a few heads per agent are read, never the whole queue.
   */
  private pump(): void {
    if (this.stopped) return;
    let free = this.max - this.running.size;
    if (free <= 0) return;
    const { journal } = this.deps;
    const heads = new Map<string, Array<{ turnId: string; key: string }>>();
    for (const agentId of journal.queuedAgents()) {
      // A disabled agent's turns stay queued until it is enabled again.
      if (this.deps.agent(agentId)?.enabled === false) continue;
      const busy = this.busyOf(agentId);
      const list = journal
        .sessionHeads(agentId, SESSION_WINDOW + busy)
        .map((h) => ({ turnId: h.turnId, key: `${agentId}\u0000${h.target}` }))
        .filter((h) => !this.busy.has(h.key));
      if (this.sessionTick.size > SESSION_TICKS) this.sessionTick.clear();
      // A session seen for the first time joins the end of the ring (in feed order); a picked session goes to the end.
      for (const h of list) if (!this.sessionTick.has(h.key)) this.sessionTick.set(h.key, ++this.tick);
      list.sort((a, b) => this.sessionTick.get(a.key)! - this.sessionTick.get(b.key)!);
      if (list.length > 0) heads.set(agentId, list);
    }
    while (free > 0 && heads.size > 0) {
      const order = [...heads.keys()].sort((a, b) => (this.agentTick.get(a) ?? 0) - (this.agentTick.get(b) ?? 0));
      for (const agentId of order) {
        if (free <= 0) break;
        const list = heads.get(agentId)!;
        const t = journal.get(list.shift()!.turnId);
        if (t) this.begin(t);
        free--;
        this.agentTick.set(agentId, ++this.tick);
        if (list.length === 0) heads.delete(agentId);
      }
    }
  }

  private busyOf(agentId: string): number {
    const prefix = `${agentId}\u0000`;
    let n = 0;
    for (const k of this.busy) if (k.startsWith(prefix)) n++;
    return n;
  }

  private begin(t: TurnRow): void {
    const key = sessionKey(t);
    this.busy.add(key);
    this.sessionTick.set(key, ++this.tick);
    const p = this.execute(t)
      .catch((e: unknown) => this.deps.log.error({ turnId: t.turnId, err: (e as Error).message }, 'turn failed inside the engine'))
      .finally(() => {
        this.busy.delete(key);
        this.running.delete(t.turnId);
        this.pump();
      });
    this.running.set(t.turnId, p);
  }

  private async execute(t: TurnRow): Promise<void> {
    const { journal, clock, log } = this.deps;
    const agent = this.deps.agent(t.agentId);
    if (!agent) return journal.finish(t.turnId, 'skipped', 'start_failed', 'the agent is no longer configured on this daemon', clock.now(), false);
    // The server counts agentRun (0 for a Human message); a step of a run an agent started counts whoever wrote the plan.
    if (t.agentRun > this.loopBound) {
      // Loop bound: one notice, on the first message past the bound; later ones are recorded silently.
      const notice = t.agentRun === this.loopBound + 1;
      journal.finish(t.turnId, 'skipped', 'loop_bound', `${t.agentRun} agent messages in a row`, clock.now(), notice);
      if (notice) await this.notify(agent, t, loopText(agent.name, this.loopBound));
      return;
    }
    journal.markRunning(t.turnId, clock.now());
    let run: TurnRun;
    try {
      run = await this.deps.run(agent, t, this.timeoutMs, journal.resumeId(agent.id, t.target), (p) => journal.setRun(t.turnId, p.runId, p.pid, p.processStartTime));
    } catch (e) {
      run = { runId: null, code: null, signal: null, timedOut: false, failure: { kind: 'start_failed', message: (e as Error).message } };
    }
    if (this.stopped && !run.failure && run.code !== 0) {
      // The daemon is stopping and stopped this runtime: same as a crash (interrupted, notice at next start).
      journal.finish(t.turnId, 'failed', 'interrupted', 'the daemon stopped while this turn ran', clock.now(), true);
      return;
    }
    const now = this.deps.agent(t.agentId);
    if (!now || now.enabled === false) {
      // Removed or disabled while the turn ran (its runtime was stopped): recorded quietly, no notice posted as the agent.
      journal.finish(t.turnId, 'failed', 'interrupted', 'the agent was removed or disabled while this turn ran', clock.now(), false);
      return;
    }
    if (run.resumeId) journal.saveResumeId(agent.id, t.target, run.resumeId, clock.now());
    const failure = classify(run);
    log.info({ turnId: t.turnId, agentId: agent.id, runId: run.runId, outcome: failure?.outcome ?? 'ok' }, 'turn finished');
    if (!failure) return journal.finish(t.turnId, 'done', 'ok', null, clock.now(), false);
    journal.finish(t.turnId, 'failed', failure.outcome, failure.detail, clock.now(), true);
    await this.notify(agent, t, noticeText(agent.name, failure.outcome, failure.detail));
  }

  /**
   * Posts a system notice as the agent to the turn's exact target; idempotent per turn, so a retry after a crash posts
   * it once. Notices go one at a time through the per-target rate gate (journal.gateNotice).
   */
  private notify(agent: AgentProfile, t: TurnRow, text: string): Promise<void> {
    const p = this.notices.then(() => this.postNotice(agent, t, text));
    this.notices = p.catch(() => undefined);
    return p;
  }

  private async postNotice(agent: AgentProfile, t: TurnRow, text: string): Promise<void> {
    const { journal, clock } = this.deps;
    if (!journal.noticeDue(t.turnId)) return;
    // Rate bound: one notice per agent per target per minute; the ones in between are counted and said in the next.
    const gate = journal.gateNotice(t.turnId, agent.id, t.target, clock.now());
    if (!gate) return this.flushHeldLater();
    const content = gate.repeats > 0 ? `${text} (${gate.repeats} more since ${timeOfDay(gate.since ?? clock.now())})` : text;
    try {
      // kind 'notice': stored as a system notice, so it starts no turn for any agent and counts for no loop bound.
      await this.deps.apiOf(agent).messages.send({ target: t.target, content, kind: 'notice' }, { idempotencyKey: `turn-notice-${t.turnId}` });
      journal.noticePosted(t.turnId, agent.id, t.target, clock.now());
    } catch (e) {
      // A replay after a crash whose text changed (the repeat count) is the notice already posted.
      if ((e as { code?: string }).code === 'idempotency_conflict') return journal.noticePosted(t.turnId, agent.id, t.target, clock.now());
      this.deps.log.warn({ turnId: t.turnId, err: (e as Error).message }, 'could not post the turn notice');
    }
  }

  /** A held notice is posted once its target's gate window has passed (one timer for all; re-armed while any is held). */
  private flushHeldLater(): void {
    if (this.heldTimer || this.stopped) return;
    this.heldTimer = this.deps.clock.setTimer(NOTICE_WINDOW_MS, () => {
      this.heldTimer = undefined;
      if (this.stopped) return;
      // postPendingNotices re-arms this timer while any notice is still held.
      void this.postPendingNotices();
    });
  }

  private async postPendingNotices(): Promise<void> {
    this.deps.journal.releaseHeld(this.deps.clock.now());
    if (this.deps.journal.hasHeld()) this.flushHeldLater();
    for (const t of this.deps.journal.noticesPending()) {
      const agent = this.deps.agent(t.agentId);
      if (!agent) continue;
      const text =
        t.outcome === 'loop_bound'
          ? loopText(agent.name, this.loopBound)
          : t.outcome === 'backlog'
            ? backlogText(agent.name, this.maxQueued)
            : noticeText(agent.name, t.outcome ?? 'interrupted', t.detail ?? '');
      await this.notify(agent, t, text);
    }
  }
}

const sessionKey = (t: TurnRow) => `${t.agentId}\u0000${t.target}`;

/** `13:02:11Z`: the UTC time of day a notice's repeat count starts from. */
function timeOfDay(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)}Z`;
}

function loopText(agentName: string, bound: number): string {
  return `${agentName} stopped: ${bound} agent messages in a row here without a Human message. Write to continue.`;
}

function backlogText(agentName: string, bound: number): string {
  return `${agentName} is behind: ${bound} turns are queued; newer messages to it are skipped until it catches up.`;
}

function classify(run: TurnRun): { outcome: TurnOutcome; detail: string } | null {
  if (run.failure) return { outcome: run.failure.kind, detail: run.failure.message };
  if (run.timedOut) return { outcome: 'timeout', detail: 'the runtime did not finish within the turn timeout' };
  if (run.code !== 0) return { outcome: 'exit_nonzero', detail: run.code === null ? `the runtime was killed (${run.signal ?? 'signal'})` : `the runtime exited with code ${run.code}` };
  return null;
}

/** A short classified notice; the detail never carries a path or secret (launch errors name files, not paths). */
function noticeText(agentName: string, outcome: TurnOutcome, detail: string): string {
  return `${agentName} could not answer (${outcome}): ${detail.slice(0, 200)}`;
}
