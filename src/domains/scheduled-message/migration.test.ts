// Tests schema steps 37 and 38 on a database that has data (SQLite, or PostgreSQL via the suites runner): runs are kept,
// removed members' schedules stop, run statuses widen, log entries share no window key, and thread starts are backfilled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshTestDb } from '../test-server.js';
import { openPostgresStore } from '../../server/store/postgres.js';
import { openSqliteStore } from '../../server/store/sqlite.js';
import type { Store } from '../../server/store/types.js';
import type { Migration } from '../../server/store/migrations.js';
import { SCHEMA } from '../registry.js';

async function open(db: string, path: string, upTo: number): Promise<Store> {
  const pick = (all: readonly Migration[]) => all.filter((m) => m.version <= upTo);
  return path ? openSqliteStore(path, { migrations: pick(SCHEMA.sqlite) }) : openPostgresStore(db, { migrations: pick(SCHEMA.postgres) });
}

test('steps 37 and 38 keep every run, stop a removed creator\'s schedules, allow skipped and log entries, and backfill who started each thread', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-mig37-'));
  const fresh = await freshTestDb(dir);
  try {
    let s = await open(fresh.db, fresh.dbPath, 36);
    const member = (id: string, removed: number | null) => s.run('INSERT INTO members (id, name, kind, role, credential_hash, created_at, removed_at, name_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [id, id, 'agent', 'member', Buffer.alloc(32, id.length + (removed ?? 0)), 1, removed, id]);
    await member('agt_here', null);
    await member('agt_gone', 5);
    const schedule = (id: string, by: string) => s.run('INSERT INTO scheduled_messages (id, target, content, at, cron, time_zone, missed_policy, enabled, next_run_at, created_by, revision, created_at, updated_at) VALUES (?, ?, ?, NULL, ?, ?, ?, 1, ?, ?, 1, 1, 1)', [id, 'task:tsk_x', 'hi', '0 * * * *', 'UTC', 'skip', 3_600_000, by]);
    await schedule('sch_here', 'agt_here');
    await schedule('sch_gone', 'agt_gone');
    await s.run("INSERT INTO schedule_runs (id, schedule_id, scheduled_for, status, occurrences, message_id, error, attempted_at, created_at) VALUES ('run_old', 'sch_here', 60000, 'failed', 1, NULL, 'old', 60000, 60000)");
    await s.run("INSERT INTO channels (id, name, created_at) VALUES ('c', 'c', 1)");
    const msg = (id: string, target: string, by: string, at: number) => s.run('INSERT INTO messages (id, target, author_id, content, reply_to, created_at) VALUES (?, ?, ?, ?, NULL, ?)', [id, target, by, id, at]);
    await msg('msg_root', 'channel:c', 'agt_here', 1);
    await msg('msg_b', 'thread:c/msg_root', 'agt_gone', 3);
    await msg('msg_a', 'thread:c/msg_root', 'agt_here', 3);
    await msg('msg_c', 'thread:c/msg_root', 'agt_here', 2);
    await s.close();

    s = await open(fresh.db, fresh.dbPath, 38);
    assert.deepEqual(await s.all('SELECT id, status, error, actor_id FROM schedule_runs'), [{ id: 'run_old', status: 'failed', error: 'old', actor_id: null }]);
    const sched = await s.all<{ id: string; enabled: number; next_run_at: number | null; deleted_by: string | null }>('SELECT id, enabled, next_run_at, deleted_by FROM scheduled_messages ORDER BY id');
    assert.deepEqual(sched.map((r) => [r.id, Number(r.enabled), r.next_run_at === null ? null : Number(r.next_run_at), r.deleted_by]), [['sch_gone', 0, null, null], ['sch_here', 1, 3_600_000, null]]);
    const run = (id: string, status: string, at: number) => s.run('INSERT INTO schedule_runs (id, schedule_id, scheduled_for, status, occurrences, attempted_at, created_at, actor_id) VALUES (?, ?, ?, ?, 1, ?, ?, ?)', [id, 'sch_here', at, status, at, at, 'agt_here']);
    await run('run_skip', 'skipped', 120_000);
    // A window is recorded once; disable/delete entries are a log and never take a window's key.
    await assert.rejects(run('run_twice', 'sent', 120_000));
    await run('run_off1', 'disabled', 120_000);
    await run('run_off2', 'deleted', 120_000);
    await assert.rejects(run('run_bad', 'exploded', 180_000));
    // The first message of a thread (created_at, then id) names who started it.
    assert.deepEqual(await s.all('SELECT target, started_by FROM thread_starts'), [{ target: 'thread:c/msg_root', started_by: 'agt_here' }]);
    await s.close();
  } finally {
    await fresh.drop();
    rmSync(dir, { recursive: true, force: true });
  }
});
