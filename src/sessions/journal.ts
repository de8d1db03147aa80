// Owns the daemon's durable turn state (home/sessions.db, 0600): per-agent feed cursors, the turn queue and log, and session resume ids.
import { closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { TurnDto } from '../domains/turn/contract.js';
import type { TurnTargetType } from '../runtime/drivers/types.js';
import { newId } from '../shared/ids.js';

export type TurnStatus = 'queued' | 'running' | 'done' | 'failed' | 'skipped';
/** The classified outcome of a finished turn. `interrupted`: the daemon stopped (crash included) while the turn ran. */
export type TurnOutcome = 'ok' | 'runtime_missing' | 'start_failed' | 'exit_nonzero' | 'timeout' | 'interrupted' | 'loop_bound';

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

  /** Queues a page of turns and moves the cursor in one transaction: a turn is queued once, and none is skipped. */
  accept(agentId: string, turns: readonly TurnDto[], cursor: number, now: number): TurnRow[] {
    const ins = this.db.prepare(
      `INSERT INTO turns (turn_id, agent_id, seq, target, target_type, message_id, author_name, author_kind, content, agent_run, status, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?) ON CONFLICT (agent_id, message_id) DO NOTHING`,
    );
    return this.db.transaction(() => {
      const added: TurnRow[] = [];
      for (const t of turns) {
        const id = newId('trn');
        if (ins.run(id, agentId, t.seq, t.target, t.targetType, t.messageId, t.author.name, t.author.kind, t.content, t.agentRun, now).changes === 1) {
          added.push(this.get(id)!);
        }
      }
      this.db.prepare('INSERT INTO cursors (agent_id, seq) VALUES (?, ?) ON CONFLICT (agent_id) DO UPDATE SET seq = MAX(seq, excluded.seq)').run(agentId, cursor);
      return added;
    })();
  }

  get(turnId: string): TurnRow | undefined {
    const r = this.db.prepare('SELECT * FROM turns WHERE turn_id = ?').get(turnId) as Raw | undefined;
    return r && row(r);
  }

  /** Queued turns in feed order (per agent, the feed order is the order the messages were written). */
  queued(): TurnRow[] {
    return (this.db.prepare("SELECT * FROM turns WHERE status = 'queued' ORDER BY agent_id, seq LIMIT 2000").all() as Raw[]).map(row);
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
    if (agentId) {
      this.db
        .prepare(
          `DELETE FROM turns WHERE agent_id = ? AND status IN ('done','failed','skipped') AND notice_pending = 0 AND turn_id NOT IN
             (SELECT turn_id FROM turns WHERE agent_id = ? ORDER BY seq DESC LIMIT ?)`,
        )
        .run(agentId, agentId, KEEP_FINISHED);
    }
  }

  /** After a restart: every turn still `running` was cut off; it is failed as `interrupted` (never re-run) with a notice due. */
  interruptRunning(now: number): number {
    return this.db
      .prepare("UPDATE turns SET status = 'failed', outcome = 'interrupted', detail = 'the daemon stopped while this turn ran', finished_at = ?, notice_pending = 1 WHERE status = 'running'")
      .run(now).changes;
  }

  noticesPending(): TurnRow[] {
    return (this.db.prepare('SELECT * FROM turns WHERE notice_pending = 1 ORDER BY seq LIMIT 200').all() as Raw[]).map(row);
  }

  noticePosted(turnId: string): void {
    this.db.prepare('UPDATE turns SET notice_pending = 0 WHERE turn_id = ?').run(turnId);
  }

  /** Recent turns of one agent, newest first. */
  recent(agentId: string, limit: number): TurnRow[] {
    return (this.db.prepare('SELECT * FROM turns WHERE agent_id = ? ORDER BY seq DESC LIMIT ?').all(agentId, limit) as Raw[]).map(row);
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
      for (const t of ['cursors', 'turns', 'sessions']) this.db.prepare(`DELETE FROM ${t} WHERE agent_id = ?`).run(agentId);
    })();
  }

  close(): void {
    this.db.close();
  }
}
