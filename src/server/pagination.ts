// Owns keyset pagination: limits (default 20, max 100) and opaque HMAC-signed cursors bound to collection, boundary and filter.
import { createHash, createHmac } from 'node:crypto';
import { constantTimeEqual } from '../shared/ids.js';
import { AppError } from '../shared/errors.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** The boundary of a keyset page: the (timestamp ms, id) of its last row. */
export interface Boundary {
  at: number;
  id: string;
}

export function normalizeLimit(limit: unknown): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new AppError('validation_failed', `limit must be an integer from 1 to ${MAX_LIMIT}`);
  }
  return limit;
}

function filterHash(filter: Record<string, string | null>): string {
  const keys = Object.keys(filter).sort();
  const norm = keys.map((k) => [k, filter[k] ?? null]);
  return createHash('sha256').update(JSON.stringify(norm)).digest('base64url').slice(0, 22);
}

const BAD_CURSOR = () => new AppError('validation_failed', 'cursor is malformed, tampered with, or was issued for a different query', { hint: 'omit cursor to start from the first page' });

/**
 * Cursor = base64url(JSON{c, a, i, f}) "." base64url(HMAC-SHA256(secret, payload)).
 * Security invariant: a cursor is honored only if its MAC verifies and it names the same collection and filter;
 * anything else is validation_failed, never page one.
 */
export class CursorCodec {
  constructor(private readonly secret: Buffer) {}

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.secret).update(payload).digest();
  }

  encode(collection: string, filter: Record<string, string | null>, b: Boundary): string {
    const payload = Buffer.from(JSON.stringify({ c: collection, a: b.at, i: b.id, f: filterHash(filter) })).toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  decode(cursor: unknown, collection: string, filter: Record<string, string | null>): Boundary {
    if (typeof cursor !== 'string' || cursor.length > 1024) throw BAD_CURSOR();
    const m = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(cursor);
    if (!m) throw BAD_CURSOR();
    const payload = m[1]!;
    const sig = Buffer.from(m[2]!, 'base64url');
    // Canonical form only: re-encoding must reproduce the exact signature text.
    if (sig.toString('base64url') !== m[2] || !constantTimeEqual(sig, this.mac(payload))) throw BAD_CURSOR();
    let v: unknown;
    try {
      v = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw BAD_CURSOR();
    }
    const o = v as { c?: unknown; a?: unknown; i?: unknown; f?: unknown };
    if (typeof o !== 'object' || o === null || o.c !== collection || o.f !== filterHash(filter)) throw BAD_CURSOR();
    if (typeof o.a !== 'number' || !Number.isSafeInteger(o.a) || typeof o.i !== 'string' || o.i.length === 0) throw BAD_CURSOR();
    return { at: o.a, id: o.i };
  }
}

/**
 * Builds a page from limit+1 rows fetched in order: `hasMore` when the extra row exists, `nextCursor` only then.
 */
export function pageOf<R, D>(
  rows: R[],
  limit: number,
  boundary: (r: R) => Boundary,
  cursor: (b: Boundary) => string,
  project: (r: R) => D,
): { items: D[]; hasMore: boolean; nextCursor?: string } {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const out: { items: D[]; hasMore: boolean; nextCursor?: string } = { items: pageRows.map(project), hasMore };
  if (hasMore) out.nextCursor = cursor(boundary(pageRows[pageRows.length - 1]!));
  return out;
}

/**
 * The SQL fragment for "strictly after the boundary" in (col DESC, id DESC) order, and its parameters.
 * A row value (SQLite ≥ 3.15, PostgreSQL) so the (…, col DESC, id DESC) index seeks to the boundary; the
 * equivalent `col < ? OR (col = ? AND id < ?)` makes SQLite scan the index from the top, slower with every page.
 */
export function afterDesc(col: string, b: Boundary | undefined, idCol = 'id'): { sql: string; params: (number | string)[] } {
  if (!b) return { sql: '', params: [] };
  return { sql: ` AND (${col}, ${idCol}) < (?, ?)`, params: [b.at, b.id] };
}
