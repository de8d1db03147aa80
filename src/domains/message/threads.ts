// Owns thread starts: who started each thread (its first message) and the per-member bound on new threads per window.
import type { Sql } from '../../server/store/types.js';
import { AppError } from '../../shared/errors.js';
import { THREAD_WINDOW_MS, THREADS_STARTED_MAX } from './contract.js';

/** Whether `target` (a canonical thread target) has no message yet. */
const isNew = async (sql: Sql, target: string) => (await sql.get('SELECT 1 AS x FROM thread_starts WHERE target = ?', [target])) === undefined;

/**
 * Bound: a member starts at most THREADS_STARTED_MAX new threads per THREAD_WINDOW_MS (a reply in an existing thread
 * is never refused). Checked before the first message of a thread is inserted, in the same transaction.
 */
export async function checkThreadRoom(sql: Sql, memberId: string, target: string, now: number): Promise<void> {
  if (!(await isNew(sql, target))) return;
  const n = await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM thread_starts WHERE started_by = ? AND created_at > ?', [memberId, now - THREAD_WINDOW_MS]);
  if (Number(n?.n ?? 0) >= THREADS_STARTED_MAX) {
    throw new AppError('conflict', `at most ${THREADS_STARTED_MAX} new threads per member per ${THREAD_WINDOW_MS / 1000} s`, { hint: 'reply in an existing thread, or wait a minute' });
  }
}

/** Records who started a thread, once (the first message of each thread target). */
export async function noteThreadStart(sql: Sql, memberId: string, target: string, now: number): Promise<void> {
  await sql.run('INSERT INTO thread_starts (target, started_by, created_at) VALUES (?, ?, ?) ON CONFLICT (target) DO NOTHING', [target, memberId, now]);
}
