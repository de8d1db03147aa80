// Owns firing due schedules: a loop on the injected Clock that claims each due window through the database, posts the
// message as the schedule's creator, and records the run (skipped, with the reason, when the creator was removed or
// may no longer read the target); late windows follow the schedule's missedPolicy.
//
// Per tick (every TICK_MS, one tick at a time):
//  1. read at most BATCH enabled schedules whose next_run_at <= now, oldest first;
//  2. for each, in one transaction: re-read it with the same next_run_at (else another process claimed it), advance
//     next_run_at past now (compare-and-set on the old value), then record the run (UNIQUE schedule_id+scheduled_for)
//     and, unless it is skipped as missed, post the message. All or nothing: a crash before commit leaves the window
//     due, a commit leaves it fired exactly once, also with several server processes on one PostgreSQL database;
//  3. a window fired more than LATE_MS after its time (the server was down) is late: `skip` records one `missed` run
//     (no message), `fireOnce` posts once; either way `occurrences` counts the windows it stands for;
//  4. a window whose creator was removed or may no longer read the target is recorded skipped, with the reason;
//  5. the run history keeps the newest RUNS_KEPT runs per schedule.
import type { Actor, DomainDeps } from '../../server/context.js';
import { AppError } from '../../shared/errors.js';
import { TickLoop } from '../module.js';
import { authorizeTarget } from '../channel/authorize.js';
import { parseTarget } from '../../shared/target.js';
import { Messages } from '../message/service.js';
import { LATE_MS, RUNS_KEPT, type RunStatus } from './contract.js';
import { SCHEDULE_COLS, timingOf, type ScheduleRow } from './service.js';
import { nextAfter, windowsBetween } from './timing.js';

export const TICK_MS = 1000;
/** Schedules fired per tick at most; the rest are due at the next tick. */
export const BATCH = 50;

export class Scheduler extends TickLoop {
  constructor(private readonly deps: DomainDeps) {
    super(deps.clock, TICK_MS);
  }

  /** One pass: fires up to BATCH due windows; returns how many this process claimed. */
  protected async pass(): Promise<number> {
    const now = this.deps.clock.now();
    const due = await this.deps.store.all<{ id: string; next_run_at: number }>('SELECT id, next_run_at FROM scheduled_messages WHERE enabled = 1 AND next_run_at IS NOT NULL AND next_run_at <= ? ORDER BY next_run_at ASC, id ASC LIMIT ?', [now, BATCH]);
    let fired = 0;
    for (const d of due) if (await this.fire(d.id, Number(d.next_run_at), now)) fired++;
    return fired;
  }

  private async fire(id: string, slot: number, now: number): Promise<boolean> {
    return this.deps.store.tx(async (sql) => {
      const r = await sql.get<ScheduleRow>(`SELECT ${SCHEDULE_COLS} FROM scheduled_messages WHERE id = ? AND enabled = 1 AND next_run_at = ?`, [id, slot]);
      if (!r) return false;
      const tm = timingOf(r);
      const next = nextAfter(tm, now);
      // The claim: only the transaction that moves next_run_at off this slot fires it.
      if ((await sql.run('UPDATE scheduled_messages SET next_run_at = ? WHERE id = ? AND next_run_at = ?', [next, id, slot])) !== 1) return false;
      const late = now - slot > LATE_MS;
      const occurrences = 1 + (late ? windowsBetween(tm, slot, now) : 0);
      let status: RunStatus = 'missed';
      let messageId: string | null = null;
      let error: string | null = null;
      if (!late || r.missed_policy === 'fireOnce') {
        // Security invariant: a schedule posts only as a current member (a removed one's never fire; see member removal).
        const author = await sql.get<Actor>('SELECT id, name, kind, role FROM members WHERE id = ? AND removed_at IS NULL', [r.created_by]);
        try {
          if (!author) throw new AppError('not_found', 'creator not found');
          // Security invariant: the message is posted only where its creator may still read and post now.
          const target = await authorizeTarget(sql, author, parseTarget(r.target));
          messageId = (await new Messages(this.deps).insert(sql, author, target, r.content, null, [])).id;
          status = 'sent';
        } catch (e) {
          if (!(e instanceof AppError) || e.code !== 'not_found') throw e;
          status = 'skipped';
          error = author ? 'the target is gone or its creator may no longer read it' : 'its creator is no longer a workspace member';
        }
      }
      const attempted = status === 'missed' ? null : now;
      await sql.run('INSERT INTO schedule_runs (id, schedule_id, scheduled_for, status, occurrences, message_id, error, attempted_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [await this.deps.ids.next(sql, 'run'), id, slot, status, occurrences, messageId, error, attempted, now]);
      // Bound: the history keeps the newest RUNS_KEPT runs (the claim is next_run_at, so a pruned run can never refire).
      await sql.run('DELETE FROM schedule_runs WHERE id IN (SELECT id FROM schedule_runs WHERE schedule_id = ? ORDER BY COALESCE(attempted_at, created_at) DESC, id DESC LIMIT ? OFFSET ?)', [id, 1_000_000, RUNS_KEPT]);
      return true;
    });
  }
}
