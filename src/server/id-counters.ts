// Owns the numbering of ids: each numbered kind's counter in the database (SQLite: a row in id_counters, taken in the caller's transaction; PostgreSQL: a sequence).
import { NUMBERED_KINDS, numberedId, type NumberedKind } from '../shared/ids.js';
import type { Sql, Store } from './store/types.js';

/** Issues ids of the numbered kinds; unique across every server process on one database (the database counts). */
export interface IdCounters {
  /** One new id of `kind`, counted in `sql` (the caller's transaction). */
  next(sql: Sql, kind: NumberedKind): Promise<string>;
  /** `count` new ids of `kind`, in ascending order. */
  take(sql: Sql, kind: NumberedKind, count: number): Promise<string[]>;
}

const KNOWN = new Set<string>(NUMBERED_KINDS);

/** The counters of `store`'s engine. */
export function idCounters(dialect: Store['dialect']): IdCounters {
  const take = dialect === 'postgres' ? takePostgres : takeSqlite;
  return {
    next: async (sql, kind) => (await take(sql, kind, 1))[0]!,
    take,
  };
}

/**
 * SQLite has one writer at a time, so the counter row is taken in the caller's own transaction: a rollback gives the
 * numbers back, and ids follow commit order.
 */
async function takeSqlite(sql: Sql, kind: NumberedKind, count: number): Promise<string[]> {
  checkKind(kind, count);
  const row = await sql.get<{ n: number }>('UPDATE id_counters SET n = n + ? WHERE kind = ? RETURNING n', [count, kind]);
  if (!row) throw new Error(`no id counter for ${kind}`);
  return range(kind, Number(row.n) - count + 1, count);
}

/**
 * PostgreSQL sequences never block and never take part in the transaction (a serializable transaction that took a
 * counter row would conflict with every other writer of its kind); a rolled-back or retried transaction leaves a gap.
 */
async function takePostgres(sql: Sql, kind: NumberedKind, count: number): Promise<string[]> {
  checkKind(kind, count);
  // The sequence name is one of NUMBERED_KINDS (checked above), never input.
  const rows = await sql.all<{ n: string | number }>(`SELECT nextval('id_seq_${kind}') AS n FROM generate_series(1, ?)`, [count]);
  return rows.map((r) => Number(r.n)).sort((a, b) => a - b).map((n) => numberedId(kind, n));
}

function checkKind(kind: string, count: number): void {
  if (!KNOWN.has(kind)) throw new Error(`${kind} is not a numbered id kind`);
  if (!Number.isInteger(count) || count < 1 || count > 10_000) throw new Error(`cannot take ${count} ids at once`);
}

function range(kind: NumberedKind, first: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => numberedId(kind, first + i));
}
