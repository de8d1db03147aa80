// Owns how both stores report constraint failures: a duplicate key is the same typed AppError on SQLite and PostgreSQL.
import { AppError } from '../../shared/errors.js';

/** SQLite's extended codes for a UNIQUE or PRIMARY KEY violation (better-sqlite3 SqliteError.code). */
const SQLITE_UNIQUE = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);
/** PostgreSQL SQLSTATE unique_violation. */
export const PG_UNIQUE_VIOLATION = '23505';

/**
 * The error a duplicate key becomes on either engine. Domains check for existing rows first, so this is only reached
 * when a concurrent writer (another transaction or server process) won the race.
 * Security invariant: the message names no table, column, value or SQL text.
 */
export function duplicateKey(): AppError {
  return new AppError('conflict', 'a conflicting record was written concurrently', { hint: 'read the current state and retry' });
}

export function isSqliteUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && SQLITE_UNIQUE.has(String((e as { code?: unknown }).code));
}

export function isPgUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === PG_UNIQUE_VIOLATION;
}
