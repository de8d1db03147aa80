// Owns keyset pagination from an ordering spec: limits, the seek predicate (mixed ASC/DESC), HMAC-signed cursors and stale detection.
import { createHash, createHmac } from 'node:crypto';
import { constantTimeEqual } from '../shared/ids.js';
import { AppError } from '../shared/errors.js';
import { fittingPrefix, PAGE_ITEMS_BYTES_MAX } from '../shared/bounds.js';
import type { Sql, SqlValue } from './store/types.js';

import { DEFAULT_LIMIT, MAX_LIMIT } from '../shared/page.js';

export { DEFAULT_LIMIT, MAX_LIMIT };
/** Longest text key a cursor may carry (every text key column is bounded below this in its domain contract). */
const MAX_TEXT_KEY = 512;
/** Longest cursor text accepted: every text key in its longest (`*` + base64url of 4-byte characters) form. */
const MAX_CURSOR = 4096;

/**
 * One key of an ordering. `text` compares in binary (byte) collation on both engines: SQLite's default BINARY and
 * PostgreSQL columns declared COLLATE "C"; `integer` and `timestamp` (integer ms) compare numerically.
 */
export interface OrderKey {
  /** The SQL expression, e.g. `updated_at` or `m.created_at`. */
  readonly column: string;
  /** The row property the query returns it as. */
  readonly field: string;
  readonly dir: 'ASC' | 'DESC';
  readonly type: 'text' | 'integer' | 'timestamp';
}

/**
 * A total order: the last key must be unique (the tie-breaker). `moved`, when set, names a monotonic integer column that
 * an update bumps (0 on insert); a cursor carries the highest value seen when the walk began and is rejected as stale if
 * any row of the filter has moved since, so an item whose keys changed mid-walk is never repeated or silently skipped.
 */
export interface Ordering {
  readonly collection: string;
  readonly keys: readonly OrderKey[];
  readonly moved?: string;
}

export type Filter = Readonly<Record<string, string | null>>;
export type KeyValue = string | number;

export interface Cursor {
  readonly values: readonly KeyValue[];
  /** The walk's high-water mark of `moved` (orderings with mutable keys only). */
  readonly asOf?: number;
}

export function normalizeLimit(limit: unknown): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new AppError('validation_failed', `limit must be an integer from 1 to ${MAX_LIMIT}`);
  }
  return limit;
}

export function orderBy(o: Ordering): string {
  return o.keys.map((k) => `${k.column} ${k.dir}`).join(', ');
}

function hash(v: unknown): string {
  return createHash('sha256').update(JSON.stringify(v)).digest('base64url').slice(0, 22);
}

/** The normalized filter (keys sorted, undefined → null) and the ordering's shape, hashed into every cursor. */
function binding(o: Ordering, filter: Filter): string {
  const f = Object.keys(filter)
    .sort()
    .map((k) => [k, filter[k] ?? null]);
  return hash([o.collection, o.keys.map((k) => [k.column, k.dir, k.type]), o.moved ?? null, f]);
}

/**
 * "Strictly after the boundary" in the ordering. Keys in one direction use a row value, so the index seeks to the
 * boundary; mixed directions expand to (k1 ≷ ?) OR (k1 = ? AND k2 ≷ ?) OR …
 */
export function after(o: Ordering, values: readonly KeyValue[] | undefined): { sql: string; params: SqlValue[] } {
  if (!values) return { sql: '', params: [] };
  const keys = o.keys;
  if (keys.every((k) => k.dir === keys[0]!.dir)) {
    const op = keys[0]!.dir === 'DESC' ? '<' : '>';
    return { sql: ` AND (${keys.map((k) => k.column).join(', ')}) ${op} (${keys.map(() => '?').join(', ')})`, params: [...values] };
  }
  const ors: string[] = [];
  const params: SqlValue[] = [];
  keys.forEach((k, i) => {
    const eq = keys.slice(0, i).map((p) => `${p.column} = ?`);
    ors.push(`(${[...eq, `${k.column} ${k.dir === 'DESC' ? '<' : '>'} ?`].join(' AND ')})`);
    params.push(...values.slice(0, i), values[i]!);
  });
  return { sql: ` AND (${ors.join(' OR ')})`, params };
}

const BAD_CURSOR = () => new AppError('validation_failed', 'cursor is malformed, tampered with, or was issued for a different query', { hint: 'omit cursor to start from the first page' });
const STALE_CURSOR = () => new AppError('validation_failed', 'cursor is stale: items of this list changed order since the walk began', { hint: 'omit cursor to start again from the first page' });

/**
 * One boundary value as cursor text for a key of `type`: integers in decimal, id-like text as is, any other text as
 * `*` + base64url; a value of the wrong type becomes `!`, which never decodes.
 */
function field(v: KeyValue, type: OrderKey['type'] | 'asOf'): string {
  if (type !== 'text') return typeof v === 'number' ? String(v) : '!';
  if (typeof v !== 'string') return '!';
  return RAW_TEXT.test(v) ? v : `*${Buffer.from(v, 'utf8').toString('base64url')}`;
}
const RAW_TEXT = /^[A-Za-z0-9_-]*$/;
const INTEGER = /^-?(0|[1-9][0-9]{0,15})$/;

/** The value of one cursor field for a key of `type`, or undefined when it is not the canonical text of one. */
function unfield(s: string, type: OrderKey['type'] | 'asOf'): KeyValue | undefined {
  if (type !== 'text') {
    const n = Number(s);
    return INTEGER.test(s) && Number.isSafeInteger(n) ? n : undefined;
  }
  if (RAW_TEXT.test(s)) return s.length <= MAX_TEXT_KEY ? s : undefined;
  if (!s.startsWith('*') || !RAW_TEXT.test(s.slice(1))) return undefined;
  const v = Buffer.from(s.slice(1), 'base64url').toString('utf8');
  return v.length <= MAX_TEXT_KEY && field(v, 'text') === s ? v : undefined;
}

/**
 * Security invariant: a cursor is honored only if its MAC verifies for the same ordering and filter, and every
 * boundary value is the canonical text of its key's type; anything else is validation_failed, never page one.
 * Short opaque cursors: `<field>~<field>…~<16-char MAC>`, one field per boundary value (+ the high-water mark), e.g.
 * `1764585215418~msg510423~Qx3…`. The collection, ordering and normalized filter
 * are bound through the MAC (HMAC-SHA256 over binding + fields, truncated to 96 bits) instead of being carried, so a
 * cursor for another collection or filter fails the MAC like a tampered one.
 */
export class CursorCodec {
  constructor(private readonly secret: Buffer) {}

  private mac(bound: string, body: string): string {
    return createHmac('sha256', this.secret).update(`${bound}.${body}`).digest().subarray(0, 12).toString('base64url');
  }

  encode(o: Ordering, filter: Filter, c: Cursor): string {
    const types = [...o.keys.map((k) => k.type), 'asOf' as const];
    const body = (c.asOf !== undefined ? [...c.values, c.asOf] : c.values).map((v, i) => field(v, types[i] ?? 'asOf')).join('~');
    return `${body}~${this.mac(binding(o, filter), body)}`;
  }

  decode(cursor: unknown, o: Ordering, filter: Filter): Cursor {
    if (typeof cursor !== 'string' || cursor.length > MAX_CURSOR) throw BAD_CURSOR();
    const cut = cursor.lastIndexOf('~');
    if (cut < 0) throw BAD_CURSOR();
    const body = cursor.slice(0, cut);
    if (!constantTimeEqual(Buffer.from(cursor.slice(cut + 1)), Buffer.from(this.mac(binding(o, filter), body)))) throw BAD_CURSOR();
    const parts = body.split('~');
    if (parts.length !== o.keys.length + (o.moved !== undefined ? 1 : 0)) throw BAD_CURSOR();
    const values = o.keys.map((k, i) => unfield(parts[i]!, k.type));
    if (values.some((v) => v === undefined)) throw BAD_CURSOR();
    if (o.moved === undefined) return { values: values as KeyValue[] };
    const s = unfield(parts[o.keys.length]!, 'asOf');
    if (!(typeof s === 'number' && s >= 0)) throw BAD_CURSOR();
    return { values: values as KeyValue[], asOf: s };
  }
}

export interface PageQuery {
  readonly ordering: Ordering;
  /** Selected columns; must include every key field. */
  readonly columns: string;
  readonly from: string;
  /** The filter's conditions with `?` placeholders (`1 = 1` for none). */
  readonly where: string;
  readonly params: readonly SqlValue[];
  /** The filter's normalized values, bound into the cursor. */
  readonly filter: Filter;
  readonly limit: unknown;
  readonly cursor: unknown;
}

/** The page statement: the filter, strictly after the boundary, in the ordering, `fetch` rows (exported for query-plan tests). */
export function pageStatement(q: Pick<PageQuery, 'ordering' | 'columns' | 'from' | 'where' | 'params'>, values: readonly KeyValue[] | undefined, fetch: number): { sql: string; params: SqlValue[] } {
  const seek = after(q.ordering, values);
  return { sql: `SELECT ${q.columns} FROM ${q.from} WHERE ${q.where}${seek.sql} ORDER BY ${orderBy(q.ordering)} LIMIT ?`, params: [...q.params, ...seek.params, fetch] };
}

export interface KeysetResult<R> {
  rows: R[];
  hasMore: boolean;
  nextCursor?: string;
  /** The exact cursor that continues after rows[i] (for a page cut short to fit its byte budget). */
  cursorAfter(i: number): string;
}

/**
 * One page: limit+1 rows fetched in the ordering strictly after the cursor's boundary; `hasMore` when the extra row
 * exists, `nextCursor` only then.
 */
export async function keysetPage<R extends Record<string, unknown>>(sql: Sql, codec: CursorCodec, q: PageQuery): Promise<KeysetResult<R>> {
  const limit = normalizeLimit(q.limit);
  const o = q.ordering;
  const cur = q.cursor === undefined ? undefined : codec.decode(q.cursor, o, q.filter);
  let asOf: number | undefined;
  if (o.moved !== undefined) {
    if (cur) {
      const moved = await sql.get(`SELECT 1 AS x FROM ${q.from} WHERE ${q.where} AND ${o.moved} > ? LIMIT 1`, [...q.params, cur.asOf!]);
      if (moved) throw STALE_CURSOR();
      asOf = cur.asOf;
    } else {
      asOf = Number((await sql.get<{ s: number | null }>(`SELECT MAX(${o.moved}) AS s FROM ${q.from}`))?.s ?? 0);
    }
  }
  const st = pageStatement(q, cur?.values, limit + 1);
  const rows = await sql.all<R>(st.sql, st.params);
  // Safety net for every list: the stored rows of one page stay within the page budget (fitPage then checks the DTOs).
  const fit = fittingPrefix(rows.slice(0, limit));
  const hasMore = rows.length > fit;
  const pageRows = rows.slice(0, fit);
  const cursorAfter = (i: number): string => {
    const last = pageRows[i]!;
    const values = o.keys.map((k) => (k.type === 'text' ? String(last[k.field]) : Number(last[k.field])));
    return codec.encode(o, q.filter, asOf === undefined ? { values } : { values, asOf });
  };
  const out: KeysetResult<R> = { rows: pageRows, hasMore, cursorAfter };
  if (hasMore) out.nextCursor = cursorAfter(pageRows.length - 1);
  return out;
}

/**
 * The page's items cut to the longest prefix whose JSON fits `budget` bytes; a cut page continues exactly after its
 * last item. Never empty while items remain, so every walk goes on (ITEM_BYTES_MAX bounds each item far below).
 */
export function fitPage<D>(p: KeysetResult<unknown>, items: D[], budget: number = PAGE_ITEMS_BYTES_MAX): { items: D[]; hasMore: boolean; nextCursor?: string } {
  const k = fittingPrefix(items, budget);
  if (k === items.length) return p.nextCursor === undefined ? { items, hasMore: p.hasMore } : { items, hasMore: p.hasMore, nextCursor: p.nextCursor };
  return { items: items.slice(0, k), hasMore: true, nextCursor: p.cursorAfter(k - 1) };
}

/** The next value of a `moved` column: one past the table's highest (run inside the writing transaction). */
export async function nextMoved(sql: Sql, table: string, column = 'moved_seq'): Promise<number> {
  return Number((await sql.get<{ s: number | null }>(`SELECT MAX(${column}) AS s FROM ${table}`))?.s ?? 0) + 1;
}

/**
 * One keyset list page, the shape every list route answers: the page's rows turned into DTOs, cut to the page budget,
 * under the list's own key (`{ tasks: […], hasMore, nextCursor? }`).
 */
export async function listPage<K extends string, R, D>(
  sql: Sql,
  codec: CursorCodec,
  key: K,
  q: PageQuery,
  dtos: (rows: R[]) => D[] | Promise<D[]>,
): Promise<{ [k in K]: D[] } & { hasMore: boolean; nextCursor?: string }> {
  const p = await keysetPage<R & Record<string, unknown>>(sql, codec, q);
  const fit = fitPage(p, await dtos(p.rows));
  const page = { [key]: fit.items, hasMore: fit.hasMore } as { [k in K]: D[] } & { hasMore: boolean; nextCursor?: string };
  if (fit.nextCursor) page.nextCursor = fit.nextCursor;
  return page;
}
