// Owns what a member's removal stops in the removal's own transaction: the removed members' schedules (disabled, logged),
// live workflow runs (cancelled with their open steps and pending approvals, logged) and workflow triggers (disabled).
import type { IdCounters } from '../../server/id-counters.js';
import type { Sql } from '../../server/store/types.js';
import { disableSchedulesOf } from '../scheduled-message/stops.js';
import { LIVE_RUN } from '../workflow/contract.js';

const marks = (n: number) => Array(n).fill('?').join(', ');
/** updated_at moves forward only. */
const FORWARD = 'CASE WHEN updated_at > ? THEN updated_at ELSE ? END';

/**
 * Security invariant: nothing a removed member (or a removed agent) owns keeps acting as them: schedules, live runs and
 * triggers stop with the removal, all or nothing. `by` is the remover, named on each log entry.
 */
export async function stopWhatTheyOwn(sql: Sql, ids: IdCounters, memberIds: readonly string[], by: string, now: number): Promise<void> {
  if (memberIds.length === 0) return;
  await disableSchedulesOf(sql, ids, memberIds, by, now);
  const who = marks(memberIds.length);
  // A cancelled run delivers no further step: every step move and approval sync requires a live run.
  const runs = await sql.all<{ id: string }>(`SELECT id FROM workflow_runs WHERE started_by IN (${who}) AND status IN (${marks(LIVE_RUN.length)}) ORDER BY id`, [...memberIds, ...LIVE_RUN]);
  for (const r of runs) {
    const open = "run_id = ? AND status IN ('active','paused','parked')";
    await sql.run(`UPDATE approvals SET status = 'cancelled', revision = revision + 1, updated_at = ${FORWARD} WHERE status = 'pending' AND id IN (SELECT approval_id FROM workflow_steps WHERE ${open} AND approval_id IS NOT NULL)`, [now, now, r.id]);
    await sql.run(`UPDATE workflow_steps SET status = 'cancelled', revision = revision + 1, updated_at = ${FORWARD} WHERE ${open}`, [now, now, r.id]);
    await sql.run(`UPDATE workflow_runs SET status = 'cancelled', current_step = NULL, revision = revision + 1, log_count = log_count + 1, updated_at = ${FORWARD} WHERE id = ?`, [now, now, r.id]);
    const seq = Number((await sql.get<{ s: number | null }>('SELECT MAX(seq) AS s FROM workflow_logs WHERE run_id = ?', [r.id]))?.s ?? 0) + 1;
    await sql.run("INSERT INTO workflow_logs (run_id, seq, step_id, event, actor_id, note, created_at) VALUES (?, ?, NULL, 'cancelled', ?, 'its starter was removed from the workspace', ?)", [r.id, seq, by, now]);
  }
  // A disabled trigger starts no run (a run start requires an enabled trigger).
  await sql.run(`UPDATE workflow_triggers SET status = 'disabled', revision = revision + 1, updated_at = ${FORWARD} WHERE status = 'enabled' AND created_by IN (${who})`, [now, now, ...memberIds]);
}
