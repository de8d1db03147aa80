// Owns applying the PostgreSQL schema history (assembled in migrations.ts) under an advisory lock.
import type pg from 'pg';
import { systemClock, type Clock } from '../../shared/clock.js';
import { planMigrations, type Migration } from './migrations.js';

/** One fixed advisory-lock key for schema migrations, shared by every server process on the database. */
const MIGRATION_LOCK_KEY = 7_346_021_550;

/**
 * Applies every migration newer than the database's version in one transaction under a transaction-scoped advisory
 * lock, so several server processes starting at once apply each step exactly once. A database whose version is newer
 * than this code knows is refused: this binary must not write a schema it does not understand.
 */
export async function migratePostgres(pool: pg.Pool, migrations: readonly Migration[], clock: Clock = systemClock): Promise<number> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // Security invariant (availability): a checked-out client has no pool listener; its 'error' is handled here, never unhandled.
  const onError = (e: Error) => void (broken = e);
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const { known, pending } = planMigrations(migrations, rows.map((r) => r.version));
      for (const m of pending) {
        await client.query(m.sql);
        // applied_at is informational only; ordering never depends on it.
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, clock.now()]);
      }
      await client.query('COMMIT');
      return known;
    } catch (e) {
      await client.query('ROLLBACK').catch((err: Error) => void (broken = err));
      throw e;
    }
  } finally {
    client.release(broken);
    client.off('error', onError);
  }
}
