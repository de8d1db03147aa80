// Owns display names for rows that reference members: one batched query per page, never one per row.
import type { Sql } from '../../server/store/types.js';
import { clipText } from '../../shared/bounds.js';
import { MEMBER_NAME, type MemberKind } from './contract.js';

/** A member as another row names it: display name (a removed one's marked, shownName) and kind. */
export interface MemberName {
  name: string;
  kind: MemberKind;
}

/** Ids per query; a page names at most a few per item, a larger set is split (bounded statement and parameter count). */
export const NAMES_BATCH_MAX = 100;

/**
 * A member's name as other rows show it. Security invariant: a removed member reads with its id and a removed marker
 * (`ana (removed mem215)`), so its old rows never read as a current member's (its name also stays taken: claimName).
 */
export function shownName(name: string, id: string, removedAt: number | string | null | undefined): string {
  const clipped = clipText(name, MEMBER_NAME.bytes);
  return removedAt === null || removedAt === undefined ? clipped : `${clipped} (removed ${id})`;
}

/** The names of the given member ids (nulls skipped, duplicates asked once); an id with no row is absent from the map. */
export async function memberNames(sql: Pick<Sql, 'all'>, ids: Iterable<string | null>): Promise<Map<string, MemberName>> {
  const want = [...new Set([...ids].filter((id): id is string => id !== null))];
  const out = new Map<string, MemberName>();
  for (let i = 0; i < want.length; i += NAMES_BATCH_MAX) {
    const batch = want.slice(i, i + NAMES_BATCH_MAX);
    const rows = await sql.all<{ id: string; name: string; kind: MemberKind; removed_at: number | null }>(`SELECT id, name, kind, removed_at FROM members WHERE id IN (${batch.map(() => '?').join(', ')})`, batch);
    for (const r of rows) out.set(r.id, { name: shownName(r.name, r.id, r.removed_at), kind: r.kind });
  }
  return out;
}

/** The name of `id` from `names`; a member with no row (never expected: rows are only marked removed) shows its id, kind from its prefix. */
export function nameOf(names: Map<string, MemberName>, id: string): MemberName {
  return names.get(id) ?? { name: id, kind: id.startsWith('agt') ? 'agent' : 'human' };
}

/** The actor's own name, known without a query (a row it has just written names only it). */
export function actorNames(actor: { id: string; name: string; kind: MemberKind }): Map<string, MemberName> {
  return new Map([[actor.id, { name: actor.name, kind: actor.kind }]]);
}

/**
 * `dto(row, names)` for each row, with the names of the members `idsOf(row)` references: one batched query for the
 * whole set, for the ids `known` does not name already (none at all when it names every one).
 */
export async function withNames<R, D>(
  sql: Pick<Sql, 'all'>,
  rows: readonly R[],
  idsOf: (r: R) => ReadonlyArray<string | null>,
  dto: (r: R, names: Map<string, MemberName>) => D,
  known: ReadonlyMap<string, MemberName> = new Map(),
): Promise<D[]> {
  const missing = rows.flatMap(idsOf).filter((id): id is string => id !== null && !known.has(id));
  const names = new Map([...known, ...(missing.length === 0 ? [] : await memberNames(sql, missing))]);
  return rows.map((r) => dto(r, names));
}
