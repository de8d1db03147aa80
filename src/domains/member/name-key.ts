// Owns when two member names read the same: the folding key (NFKC, case folded, invisibles dropped) and the one check every name-setting path runs (by skeleton, name-rule.ts).
import { AppError } from '../../shared/errors.js';
import type { Sql } from '../../server/store/types.js';
import { nameIdentityDigest } from './name-rule.js';
import { nameKey, nameKeyDigest } from './name-fold.js';

export { nameKey, nameKeyDigest };

// Security invariant: one message whoever holds the name, so a would-be member learns nothing beyond "taken".
const taken = (name: string) =>
  new AppError('conflict', `the name ${JSON.stringify(name)} is taken in this workspace (names are unique ignoring case, width, invisible characters and look-alike letters; a removed member's name stays taken)`);

/** Rows whose name_skeleton is filled per backfill statement (rows from before schema 34; each claim fills what is left). */
const BACKFILL_BATCH = 400;

/** What a member row stores for its name: the name_key digest (schema 28) and the skeleton digest (schema 34). */
export interface ClaimedName {
  key: string;
  skeleton: string;
}

/**
 * Refuses `name` when another member, current or removed, reads the same (same confusable skeleton after folding),
 * inside the caller's transaction; returns the digests to store. Rows from before schema 34 get their skeleton here
 * first (SQL cannot compute it). Two racing writers end in one holder and one conflict: SQLite has one writer, and
 * PostgreSQL's serializable transactions re-run the loser, which then sees the winner.
 */
export async function claimName(sql: Sql, name: string, selfId?: string): Promise<ClaimedName> {
  const skeleton = nameIdentityDigest(name);
  for (;;) {
    const rows = await sql.all<{ id: string; name: string }>(`SELECT id, name FROM members WHERE name_skeleton IS NULL ORDER BY id LIMIT ${BACKFILL_BATCH}`);
    if (rows.length > 0) {
      const cases = rows.map(() => 'WHEN ? THEN ?').join(' ');
      const params = [...rows.flatMap((r) => [r.id, nameIdentityDigest(r.name)]), ...rows.map((r) => r.id)];
      await sql.run(`UPDATE members SET name_skeleton = CASE id ${cases} END WHERE id IN (${rows.map(() => '?').join(', ')})`, params);
    }
    if (rows.length < BACKFILL_BATCH) break;
  }
  // Security invariant: a removed member's name stays taken, so its old messages never read as a new holder's.
  if (await sql.get('SELECT 1 AS x FROM members WHERE name_skeleton = ? AND id <> ?', [skeleton, selfId ?? ''])) throw taken(name);
  return { key: nameKeyDigest(name), skeleton };
}
