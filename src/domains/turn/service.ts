// Owns the turn service: every message gets a gap-free feed position; an agent reads the messages addressed to it after a cursor.
import { AppError } from '../../shared/errors.js';
import type { Actor, DomainDeps } from '../../server/context.js';
import type { Sql } from '../../server/store/types.js';
import { FEED_CHANNEL } from '../../server/store/pg-listen.js';
import { parseTarget } from '../../shared/target.js';
import type { TurnDto, TurnPage } from './contract.js';

/** Feed rows scanned per read; the cursor moves past scanned rows whether or not they address the caller. */
export const TURN_SCAN_LIMIT = 200;
/** Longest long-poll wait a caller may ask for (below the daemon's 10 s per-call timeout). */
export const MAX_TURN_WAIT_MS = 8000;
/** Consecutive agent-authored messages counted back from a turn's message (the daemon's loop bound is below this). */
export const AGENT_RUN_CAP = 50;
/**
 * A waiting read wakes at once when a message commits, in this server process (FeedSignal) or, on PostgreSQL, in any
 * process sharing the database (NOTIFY on FEED_CHANNEL, store.onFeedCommit). It also rechecks the feed this often: the
 * safety net while a LISTEN connection is being re-opened.
 */
const RECHECK_MS = 250;

/**
 * Marks a new message for the feed inside the message's own transaction (an insert of a fresh row: no hot row, no
 * conflicts). A store with listeners (PostgreSQL, `feedOrigin`) also notifies FEED_CHANNEL, delivered only on commit.
 */
export async function markPending(sql: Sql, messageId: string, now: number, feedOrigin: string | undefined): Promise<void> {
  await sql.run('INSERT INTO feed_pending (message_id, created_at) VALUES (?, ?)', [messageId, now]);
  if (feedOrigin !== undefined) await sql.run('SELECT pg_notify(?, ?)', [FEED_CHANNEL, feedOrigin]);
}

/** Pending messages moved into the feed per assignment transaction. */
const ASSIGN_BATCH = 500;

interface FeedRow {
  seq: number | string;
  id: string;
  target: string;
  author_id: string;
  content: string;
  created_at: number | string;
  author_name: string;
  author_kind: 'human' | 'agent';
  kind: string;
  step_assignee: string | null;
  /** The kind of the member who started the run a step message belongs to (null: not a step message). */
  step_starter_kind: 'human' | 'agent' | null;
}

/** The kind of the starter of the run whose step message is `m` (null for any other message). */
const STEP_STARTER_KIND = '(SELECT k.kind FROM workflow_steps s JOIN workflow_runs r ON r.id = s.run_id JOIN members k ON k.id = r.started_by WHERE s.message_id = m.id LIMIT 1)';

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** True when `content` mentions `@name` as a whole word (case-insensitive; a trailing sentence dot is allowed). */
export function mentions(content: string, name: string): boolean {
  return new RegExp(`(^|[^A-Za-z0-9._-])@${escapeRe(name)}(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])`, 'i').test(content);
}

export class Turns {
  constructor(private readonly deps: DomainDeps) {}

  /**
   * The turns of the calling agent strictly after `after`, in feed order, and the cursor to pass next. Waits up to
   * `waitMs` when nothing new was written. A message addresses the agent when it is (never its own message, except a
   * workflow step delivered to it): a DM to it; an `@name` mention in a channel it belongs to; in a thread of such a
   * channel, a mention, or a reply in a thread it started, posted in or was mentioned in; a comment on a task assigned
   * to it; a workflow step assigned to it, in any task's discussion too.
   */
  async read(actor: Actor, input: { after: number; waitMs: number }): Promise<TurnPage> {
    if (actor.kind !== 'agent') throw new AppError('denied', 'only agents read turns');
    const deadline = this.deps.clock.now() + Math.min(Math.max(0, input.waitMs), MAX_TURN_WAIT_MS);
    for (;;) {
      // Taken before reading, so a message written during this read wakes the wait below at once.
      const seen = this.deps.feed?.version ?? 0;
      await this.assign();
      const page = await this.scan(actor, input.after);
      const left = deadline - this.deps.clock.now();
      if (page.cursor > input.after || left <= 0) return page;
      const ms = Math.min(left, RECHECK_MS);
      if (this.deps.feed) await this.deps.feed.wait(seen, ms, this.deps.clock);
      else await new Promise<void>((r) => this.deps.clock.setTimer(ms, r));
    }
  }

  /**
   * Gives committed pending messages their feed positions. The feed is gap-free and in commit order: assignment runs
   * under one exclusive lock (PostgreSQL: LOCK TABLE before the transaction's first query, so its snapshot already sees
   * every assignment committed before it; SQLite: one writer), so a reader never sees position N+1 before N.
   */
  private async assign(): Promise<void> {
    const { store } = this.deps;
    if (!(await store.get('SELECT 1 AS x FROM feed_pending LIMIT 1'))) return;
    await store.tx(async (sql) => {
      if (store.dialect === 'postgres') await sql.run('LOCK TABLE feed_counter IN EXCLUSIVE MODE');
      const pending = await sql.all<{ message_id: string }>('SELECT message_id FROM feed_pending ORDER BY created_at ASC, message_id ASC LIMIT ?', [ASSIGN_BATCH]);
      if (pending.length === 0) return;
      const row = await sql.get<{ seq: number | string }>('SELECT seq FROM feed_counter WHERE id = 1');
      let seq = Number(row!.seq);
      for (const p of pending) {
        seq++;
        await sql.run('INSERT INTO message_feed (seq, message_id) VALUES (?, ?)', [seq, p.message_id]);
        await sql.run('DELETE FROM feed_pending WHERE message_id = ?', [p.message_id]);
      }
      await sql.run('UPDATE feed_counter SET seq = ? WHERE id = 1', [seq]);
    });
  }

  private scan(actor: Actor, after: number): Promise<TurnPage> {
    return this.deps.store.tx(async (sql) => {
      const rows = await sql.all<FeedRow>(
        `SELECT f.seq, m.id, m.target, m.author_id, m.content, m.created_at, m.kind, a.name AS author_name, a.kind AS author_kind,
                (SELECT s.assignee FROM workflow_steps s WHERE s.message_id = m.id) AS step_assignee, ${STEP_STARTER_KIND} AS step_starter_kind
           FROM message_feed f JOIN messages m ON m.id = f.message_id JOIN members a ON a.id = m.author_id
          WHERE f.seq > ? ORDER BY f.seq ASC LIMIT ?`,
        [after, TURN_SCAN_LIMIT],
      );
      const turns: TurnDto[] = [];
      let cursor = after;
      for (const r of rows) {
        cursor = Number(r.seq);
        // A system notice (failure, loop or backlog, posted by a daemon as its agent) never starts a turn, for any agent.
        if (r.kind === 'notice') continue;
        // A workflow step delivered to this agent (a row the server wrote, never a message's text) is its turn, even when
        // the agent started the run itself; it is bounded by the plan, so the loop bound does not count it.
        const step = r.step_assignee === actor.id;
        // Otherwise an agent's own messages never start its own turns.
        if (r.author_id === actor.id && !step) continue;
        if (!(await this.addresses(sql, actor, r))) continue;
        const t = parseTarget(r.target);
        turns.push({
          seq: cursor,
          messageId: r.id,
          target: r.target,
          targetType: t.kind,
          author: { id: r.author_id, name: r.author_name, kind: r.author_kind },
          content: r.content,
          createdAt: new Date(Number(r.created_at)).toISOString(),
          // Loop bound: a step of a run a Human started reaches its agent (the plan bounds it); a step of a run an agent
          // started counts like that agent's own message, and cancelling or restarting runs never resets the count.
          agentRun: step && r.step_starter_kind === 'human' ? 0 : await this.agentRun(sql, r.target, cursor),
        });
      }
      return { turns, cursor };
    });
  }

  private async addresses(sql: Sql, me: Actor, r: FeedRow): Promise<boolean> {
    const t = parseTarget(r.target);
    const inChannel = async (channelId: string) => !!(await sql.get('SELECT 1 AS x FROM channel_members WHERE channel_id = ? AND member_id = ?', [channelId, me.id]));
    switch (t.kind) {
      case 'dm':
        return !!(await sql.get('SELECT 1 AS x FROM dm_members WHERE dm_id = ? AND member_id = ?', [t.dmId, me.id]));
      case 'task':
        // A step in a task's discussion (open to every member) reaches its assignee even if the task is someone else's.
        return r.step_assignee === me.id || !!(await sql.get('SELECT 1 AS x FROM tasks WHERE id = ? AND assignee_id = ?', [t.taskId, me.id]));
      case 'channel':
        return mentions(r.content, me.name) && (await inChannel(t.channelId));
      case 'thread': {
        if (!(await inChannel(t.channelId))) return false;
        if (mentions(r.content, me.name)) return true;
        // Earlier messages of the thread (its root included): did the agent start it, post in it, or get mentioned?
        const earlier = await sql.all<{ author_id: string; content: string }>(
          `SELECT m.author_id, m.content FROM messages m JOIN message_feed f ON f.message_id = m.id
            WHERE (m.id = ? OR m.target = ?) AND f.seq < ? AND (m.author_id = ? OR lower(m.content) LIKE ?) LIMIT 50`,
          [t.rootId, r.target, Number(r.seq), me.id, `%@${me.name.toLowerCase()}%`],
        );
        if (earlier.some((e) => e.author_id === me.id || mentions(e.content, me.name))) return true;
        const root = await sql.get<{ author_id: string; content: string }>('SELECT author_id, content FROM messages WHERE id = ?', [t.rootId]);
        return root !== undefined && (root.author_id === me.id || mentions(root.content, me.name));
      }
    }
  }

  /**
   * Agent messages in a row in `target` ending at feed position `seq` (inclusive), up to AGENT_RUN_CAP, back to the last
   * Human message; notices are not counted (nor end a run). A step message is never a Human message, whoever wrote its plan: a step of a run an agent started is
   * an agent message; a step of a run a Human started is passed over (neither counted nor a reset).
   */
  private async agentRun(sql: Sql, target: string, seq: number): Promise<number> {
    const kinds = await sql.all<{ kind: string; starter: string | null }>(
      `SELECT a.kind, ${STEP_STARTER_KIND} AS starter FROM messages m JOIN message_feed f ON f.message_id = m.id JOIN members a ON a.id = m.author_id
        WHERE m.target = ? AND f.seq <= ? AND m.kind <> 'notice' ORDER BY f.seq DESC LIMIT ?`,
      [target, seq, AGENT_RUN_CAP],
    );
    let n = 0;
    for (const k of kinds) {
      if (k.starter === 'human') continue;
      if (k.starter === null && k.kind !== 'agent') break;
      n++;
    }
    return n;
  }
}
