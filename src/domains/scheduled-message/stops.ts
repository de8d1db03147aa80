// Owns stopping schedules by someone other than their creator (the owner; a member's removal): disabled or deleted, each
// logged as a run entry naming who, so the creator sees who stopped their schedule.
import type { IdCounters } from '../../server/id-counters.js';
import type { Sql } from '../../server/store/types.js';
import { RUNS_KEPT } from './contract.js';

export type StopEvent = 'disabled' | 'deleted';

/** Appends one log entry (not a window: scheduled_for is the event's time) and keeps the newest RUNS_KEPT runs. */
export async function logStop(sql: Sql, ids: IdCounters, scheduleId: string, event: StopEvent, by: string, reason: string, now: number): Promise<void> {
  await sql.run('INSERT INTO schedule_runs (id, schedule_id, scheduled_for, status, occurrences, message_id, error, attempted_at, created_at, actor_id) VALUES (?, ?, ?, ?, 1, NULL, ?, ?, ?, ?)', [await ids.next(sql, 'run'), scheduleId, now, event, reason, now, now, by]);
  await sql.run('DELETE FROM schedule_runs WHERE id IN (SELECT id FROM schedule_runs WHERE schedule_id = ? ORDER BY COALESCE(attempted_at, created_at) DESC, id DESC LIMIT ? OFFSET ?)', [scheduleId, 1_000_000, RUNS_KEPT]);
}

/**
 * Security invariant: a removed member's (and each removed agent's) schedules stop in the removal's own transaction,
 * each logged as disabled by the remover. At most SCHEDULES_PER_MEMBER_MAX per member are touched.
 */
export async function disableSchedulesOf(sql: Sql, ids: IdCounters, memberIds: readonly string[], by: string, now: number): Promise<void> {
  if (memberIds.length === 0) return;
  const marks = memberIds.map(() => '?').join(', ');
  const live = await sql.all<{ id: string }>(`SELECT id FROM scheduled_messages WHERE enabled = 1 AND created_by IN (${marks}) ORDER BY id`, [...memberIds]);
  for (const s of live) {
    await sql.run('UPDATE scheduled_messages SET enabled = 0, next_run_at = NULL, revision = revision + 1, updated_at = CASE WHEN updated_at > ? THEN updated_at ELSE ? END WHERE id = ?', [now, now, s.id]);
    await logStop(sql, ids, s.id, 'disabled', by, 'its creator was removed from the workspace', now);
  }
}
