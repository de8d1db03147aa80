// Owns the daemon's durable turn state (home/sessions.db, 0600): per-agent feed cursors, the turn queue and log, and session resume ids.
import { closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { TurnDto } from '../domains/turn/contract.js';
import type { TurnTargetType } from '../runtime/drivers/types.js';
import { newId } from '../shared/ids.js';

export type TurnStatus = 'queued' | 'running' | 'done' | 'failed' | 'skipped';
/** The classified outcome of a finished turn. `interrupted`: the daemon stopped (crash included) while the turn ran. */
/** `backlog`: the agent already had its bound of queued turns when this one arrived (recorded, never run). */
export type TurnOutcome = 'ok' | 'runtime_missing' | 'start_failed' | 'exit_nonzero' | 'timeout' | 'interrupted' | 'loop_bound' | 'backlog';

export interface TurnRow {
  turnId: string;
  agentId: string;
  seq: number;
  target: string;
  targetType: TurnTargetType;
  messageId: string;
  authorName: string;
  authorKind: 'human' | 'agent';
  content: string;
  agentRun: number;
  status: TurnStatus;
  outcome: TurnOutcome | null;
  detail: string | null;
  runId: string | null;
  receivedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

/** Finished turns kept per agent for `agent logs`; older ones are pruned. */
const KEEP_FINISHED = 500;
/** The notice rate bound: at most one notice per agent per target in this window; repeats are counted for the next one. */
export const NOTICE_WINDOW_MS = 60_000;
/** notice_pending of a notice the rate gate holds until its window ends (1: due now; 0: none or done). */
const HELD = 2;
/** Notice-gate rows (agent × target) are kept this long after their last notice, and at most GATE_ROWS of them. */
const GATE_KEEP_MS = 24 * 3600_000;
const GATE_ROWS = 10_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS cursors (agent_id TEXT PRIMARY KEY, seq INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS turns (
  turn_id TEXT PRIMARY KEY, agent_id TEXT NOT NULL, seq INTEGER NOT NULL, target TEXT NOT NULL, target_type TEXT NOT NULL,
  message_id TEXT NOT NULL, author_name TEXT NOT NULL, author_kind TEXT NOT NULL, content TEXT NOT NULL, agent_run INTEGER NOT NULL,
  status TEXT NOT NULL, outcome TEXT, detail TEXT, run_id TEXT, pid INTEGER, pid_start TEXT, notice_pending INTEGER NOT NULL DEFAULT 0,
  received_at INTEGER NOT NULL, started_at INTEGER, finished_at INTEGER,
  UNIQUE (agent_id, message_id)
);
CREATE INDEX IF NOT EXISTS turns_by_status ON turns (status, seq);
CREATE INDEX IF NOT EXISTS turns_by_agent ON turns (agent_id, seq DESC);
CREATE INDEX IF NOT EXISTS turns_queue ON turns (agent_id, status, target, seq);
CREATE INDEX IF NOT EXISTS turns_by_received ON turns (received_at DESC, seq DESC);
CREATE TABLE IF NOT EXISTS notice_gate (agent_id TEXT NOT NULL, target TEXT NOT NULL, last_at INTEGER NOT NULL, repeats INTEGER NOT NULL DEFAULT 0, since INTEGER, PRIMARY KEY (agent_id, target));
CREATE TABLE IF NOT EXISTS sessions (agent_id TEXT NOT NULL, target TEXT NOT NULL, resume_id TEXT, updated_at INTEGER NOT NULL, PRIMARY KEY (agent_id, target));
`;

interface Raw {
  turn_id: string;
  agent_id: string;
  seq: number;
  target: string;
  target_type: TurnTargetType;
  message_id: string;
  author_name: string;
  author_kind: 'human' | 'agent';
  content: string;
  agent_run: number;
  status: TurnStatus;
  outcome: TurnOutcome | null;
  detail: string | null;
  run_id: string | null;
  received_at: number;
  started_at: number | null;
  finished_at: number | null;
}

function row(r: Raw): TurnRow {
  return {
    turnId: r.turn_id,
    agentId: r.agent_id,
    seq: r.seq,
    target: r.target,
    targetType: r.target_type,
    messageId: r.message_id,
    authorName: r.author_name,
    authorKind: r.author_kind,
    content: r.content,
    agentRun: r.agent_run,
    status: r.status,
    outcome: r.outcome,
    detail: r.detail,
    runId: r.run_id,
    receivedAt: r.received_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

export class TurnJournal {
  private readonly db: Database.Database;

  constructor(path: string) {
    // Security invariant: the journal holds message text; it is created 0600 inside the 0700 home before SQLite opens it.
    closeSync(openSync(path, 'a', 0o600));
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // FULL: an accepted turn and its cursor survive a crash of the daemon right after the commit.
    this.db.pragma('synchronous = FULL');
    this.db.exec(SCHEMA);
  }

  cursor(agentId: string): number {
    return (this.db.prepare('SELECT seq FROM cursors WHERE agent_id = ?').get(agentId) as { seq: number } | undefined)?.seq ?? 0;
  }

  /**
   * Queues a page of turns and moves the cursor in one transaction: a turn is queued once, and none is skipped. Past
   * `maxQueued` queued turns of this agent a new turn is recorded `skipped: backlog` instead; the first such turn of a
   * backlog (the agent's newest turn before it was not a backlog skip) carries the one notice.
   */
  accept(agentId: string, turns: readonly TurnDto[], cursor: number, now: number, maxQueued = Number.MAX_SAFE_INTEGER): TurnRow[] {
    const ins = this.db.prepare(
      `INSERT INTO turns (turn_id, agent_id, seq, target, target_type, message_id, author_name, author_kind, content, agent_run, status, outcome, detail, finished_at, notice_pending, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (agent_id, message_id) DO NOTHING`,
    );
    return this.db.transaction(() => {
      const added: TurnRow[] = [];
      let queued = (this.db.prepare("SELECT COUNT(*) AS n FROM turns WHERE agent_id = ? AND status = 'queued'").get(agentId) as { n: number }).n;
      let inBacklog = (this.db.prepare('SELECT outcome FROM turns WHERE agent_id = ? ORDER BY seq DESC LIMIT 1').get(agentId) as { outcome: string | null } | undefined)?.outcome === 'backlog';
      for (const t of turns) {
        const id = newId('trn');
        // The per-agent bound on queued turns: beyond it a turn is recorded as skipped (backlog), with one notice per backlog.
        const over = queued >= maxQueued;
        const row = over
          ? ['skipped', 'backlog', `${maxQueued} turns were already queued`, now, inBacklog ? 0 : 1]
          : ['queued', null, null, null, 0];
        if (ins.run(id, agentId, t.seq, t.target, t.targetType, t.messageId, t.author.name, t.author.kind, t.content, t.agentRun, ...row, now).changes === 1) {
          added.push(this.get(id)!);
          if (over) inBacklog = true;
          else (queued++, (inBacklog = false));
        }
      }
      this.db.prepare('INSERT INTO cursors (agent_id, seq) VALUES (?, ?) ON CONFLICT (agent_id) DO UPDATE SET seq = MAX(seq, excluded.seq)').run(agentId, cursor);
      // Bounded: skipped turns of a flooded (or disabled) agent are pruned like finished ones.
      if (added.some((t) => t.status === 'skipped')) this.prune(agentId);
      return added;
    })();
  }

  get(turnId: string): TurnRow | undefined {
    const r = this.db.prepare('SELECT * FROM turns WHERE turn_id = ?').get(turnId) as Raw | undefined;
    return r && row(r);
  }

  /** Queued turns in feed order per agent (tests and diagnostics; the engine picks through queuedAgents and sessionHeads). */
  queued(limit = 2000): TurnRow[] {
    return (this.db.prepare("SELECT * FROM turns WHERE status = 'queued' ORDER BY agent_id, seq LIMIT ?").all(limit) as Raw[]).map(row);
  }

  /** The agents that have queued turns (bounded by the hosted agents). */
  queuedAgents(): string[] {
    return (this.db.prepare("SELECT DISTINCT agent_id FROM turns WHERE status = 'queued'").all() as Array<{ agent_id: string }>).map((r) => r.agent_id);
  }

  /** The oldest queued turn of each of this agent's sessions (one per target), oldest first, at most `limit` (ids only). */
  sessionHeads(agentId: string, limit: number): Array<{ turnId: string; target: string }> {
    return (
      this.db
        .prepare(
          // CROSS JOIN keeps the heads (one per session) the outer loop: with a plain JOIN SQLite walked every turn of
          // the agent in seq order and re-ran the heads per turn (quadratic: 13 s a pick on a 10,000-turn backlog).
          `SELECT t.turn_id, t.target FROM (SELECT MIN(seq) AS seq FROM turns WHERE agent_id = ? AND status = 'queued' GROUP BY target) h
             CROSS JOIN turns t ON t.agent_id = ? AND t.seq = h.seq ORDER BY h.seq LIMIT ?`,
        )
        .all(agentId, agentId, limit) as Array<{ turn_id: string; target: string }>
    ).map((r) => ({ turnId: r.turn_id, target: r.target }));
  }

  /** Marks a turn as running before its runtime starts, so a crash leaves a trace. */
  markRunning(turnId: string, now: number): void {
    this.db.prepare("UPDATE turns SET status = 'running', started_at = ? WHERE turn_id = ?").run(now, turnId);
  }

  /** Records the turn's runtime process (pid + start time) as soon as it runs, so a restart can stop an orphan. */
  setRun(turnId: string, runId: string, pid?: number, pidStart?: string | null): void {
    this.db.prepare('UPDATE turns SET run_id = ?, pid = COALESCE(?, pid), pid_start = COALESCE(?, pid_start) WHERE turn_id = ?').run(runId, pid ?? null, pidStart ?? null, turnId);
  }

  /** The runtime processes of turns still marked running (left by a crashed daemon). */
  runningProcesses(): Array<{ turnId: string; pid: number; pidStart: string }> {
    return (this.db.prepare("SELECT turn_id, pid, pid_start FROM turns WHERE status = 'running' AND pid IS NOT NULL AND pid_start IS NOT NULL").all() as Array<{ turn_id: string; pid: number; pid_start: string }>).map(
      (r) => ({ turnId: r.turn_id, pid: r.pid, pidStart: r.pid_start }),
    );
  }

  finish(turnId: string, status: 'done' | 'failed' | 'skipped', outcome: TurnOutcome, detail: string | null, now: number, noticePending: boolean): void {
    this.db
      .prepare('UPDATE turns SET status = ?, outcome = ?, detail = ?, finished_at = ?, notice_pending = ? WHERE turn_id = ?')
      .run(status, outcome, detail === null ? null : detail.slice(0, 500), now, noticePending ? 1 : 0, turnId);
    const agentId = this.get(turnId)?.agentId;
    if (agentId) this.prune(agentId);
  }

  /** Keeps the agent's newest KEEP_FINISHED turns; older finished ones (no notice due) are deleted. */
  private prune(agentId: string): void {
    this.db
      .prepare(
        `DELETE FROM turns WHERE agent_id = ? AND status IN ('done','failed','skipped') AND notice_pending = 0 AND turn_id NOT IN
           (SELECT turn_id FROM turns WHERE agent_id = ? ORDER BY seq DESC LIMIT ?)`,
      )
      .run(agentId, agentId, KEEP_FINISHED);
  }

  /** After a restart: every turn still `running` was cut off; it is failed as `interrupted` (never re-run) with a notice due. */
  interruptRunning(now: number): number {
    return this.db
      .prepare("UPDATE turns SET status = 'failed', outcome = 'interrupted', detail = 'the daemon stopped while this turn ran', finished_at = ?, notice_pending = 1 WHERE status = 'running'")
      .run(now).changes;
  }

  /** Held notices whose gate window has passed, made due again (notice_pending 1) for the engine to post. */
  releaseHeld(now: number): TurnRow[] {
    return this.db.transaction(() => {
      const rows = this.db
        .prepare(
          `SELECT t.* FROM turns t JOIN notice_gate g ON g.agent_id = t.agent_id AND g.target = t.target
            WHERE t.notice_pending = ${HELD} AND g.last_at <= ? ORDER BY t.seq LIMIT 200`,
        )
        .all(now - NOTICE_WINDOW_MS) as Raw[];
      const due = this.db.prepare('UPDATE turns SET notice_pending = 1 WHERE turn_id = ?');
      for (const r of rows) due.run(r.turn_id);
      return rows.map(row);
    })();
  }

  /** True while some notice is held by the rate gate. */
  hasHeld(): boolean {
    return this.db.prepare(`SELECT 1 FROM turns WHERE notice_pending = ${HELD} LIMIT 1`).get() !== undefined;
  }

  noticesPending(): TurnRow[] {
    return (this.db.prepare('SELECT * FROM turns WHERE notice_pending = 1 ORDER BY seq LIMIT 200').all() as Raw[]).map(row);
  }

  noticeDue(turnId: string): boolean {
    return (this.db.prepare('SELECT notice_pending FROM turns WHERE turn_id = ?').get(turnId) as { notice_pending: number } | undefined)?.notice_pending === 1;
  }

  /**
   * The notice rate bound, per agent and target: within NOTICE_WINDOW_MS of the last notice there, this turn's notice
   * is counted (not posted; null is returned). Otherwise the repeats counted since the last one are returned, to be said.
   */
  gateNotice(turnId: string, agentId: string, target: string, now: number): { repeats: number; since: number | null } | null {
    return this.db.transaction(() => {
      const g = this.db.prepare('SELECT last_at, repeats, since FROM notice_gate WHERE agent_id = ? AND target = ?').get(agentId, target) as
        | { last_at: number; repeats: number; since: number | null }
        | undefined;
      // An older held notice of this agent and target is superseded by this one: it is counted as a repeat.
      const superseded = this.db
        .prepare(`UPDATE turns SET notice_pending = 0 WHERE agent_id = ? AND target = ? AND notice_pending = ${HELD} AND turn_id <> ?`)
        .run(agentId, target, turnId).changes;
      if (g && now - g.last_at < NOTICE_WINDOW_MS) {
        // Held, never dropped: the newest gated notice waits for the window's end (heldDue), so the last word is posted.
        this.db.prepare('UPDATE notice_gate SET repeats = repeats + ?, since = COALESCE(since, ?) WHERE agent_id = ? AND target = ?').run(superseded, now, agentId, target);
        this.db.prepare(`UPDATE turns SET notice_pending = ${HELD} WHERE turn_id = ?`).run(turnId);
        return null;
      }
      return { repeats: (g?.repeats ?? 0) + superseded, since: g?.since ?? (superseded > 0 ? now : null) };
    })();
  }

  /** A notice was posted: the turn's notice is done and the gate's window starts again, with no repeats counted. */
  noticePosted(turnId: string, agentId?: string, target?: string, now?: number): void {
    this.db.transaction(() => {
      this.db.prepare('UPDATE turns SET notice_pending = 0 WHERE turn_id = ?').run(turnId);
      if (agentId === undefined || target === undefined || now === undefined) return;
      this.db
        .prepare('INSERT INTO notice_gate (agent_id, target, last_at, repeats, since) VALUES (?, ?, ?, 0, NULL) ON CONFLICT (agent_id, target) DO UPDATE SET last_at = excluded.last_at, repeats = 0, since = NULL')
        .run(agentId, target, now);
      // Bounded: old gate rows go, and at most GATE_ROWS are kept (the newest).
      this.db.prepare('DELETE FROM notice_gate WHERE last_at < ?').run(now - GATE_KEEP_MS);
      this.db.prepare('DELETE FROM notice_gate WHERE rowid NOT IN (SELECT rowid FROM notice_gate ORDER BY last_at DESC LIMIT ?)').run(GATE_ROWS);
    })();
  }

  /** Recent turns of one agent, newest first. */
  recent(agentId: string, limit: number): TurnRow[] {
    return (this.db.prepare('SELECT * FROM turns WHERE agent_id = ? ORDER BY seq DESC LIMIT ?').all(agentId, limit) as Raw[]).map(row);
  }

  /** Recent turns across agents, newest first, with message text left out (the console's turn list). */
  recentAll(limit: number): Array<Omit<TurnRow, 'content'>> {
    return (this.db.prepare('SELECT * FROM turns ORDER BY received_at DESC, seq DESC LIMIT ?').all(limit) as Raw[]).map((r) => {
      const { content: _c, ...t } = row(r);
      return t;
    });
  }

  resumeId(agentId: string, target: string): string | undefined {
    return (this.db.prepare('SELECT resume_id FROM sessions WHERE agent_id = ? AND target = ?').get(agentId, target) as { resume_id: string | null } | undefined)?.resume_id ?? undefined;
  }

  saveResumeId(agentId: string, target: string, resumeId: string, now: number): void {
    this.db
      .prepare('INSERT INTO sessions (agent_id, target, resume_id, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (agent_id, target) DO UPDATE SET resume_id = excluded.resume_id, updated_at = excluded.updated_at')
      .run(agentId, target, resumeId.slice(0, 256), now);
  }

  /** Deletes everything kept for a removed agent: its feed cursor, turns (message text included) and session resume ids. */
  forget(agentId: string): void {
    this.db.transaction(() => {
      for (const t of ['cursors', 'turns', 'sessions', 'notice_gate']) this.db.prepare(`DELETE FROM ${t} WHERE agent_id = ?`).run(agentId);
    })();
  }

  close(): void {
    this.db.close();
  }
}
