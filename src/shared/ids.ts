// Owns identifiers and secrets: random ids, opaque tokens with a kind prefix, keyed hashes and constant-time compares.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The grammar of every resource id (generated ones are a prefix + base64url or hex): in Exec inputs, server bodies and path segments. */
export const ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$';
export const ID_RE = new RegExp(ID_PATTERN);
/** The bounded selector grammar of requestId / idempotencyKey (spec: malformed or oversized selectors are rejected). */
export const SELECTOR_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';
export const SELECTOR_RE = new RegExp(SELECTOR_PATTERN);

/** A random, URL-safe id with a prefix, e.g. newId('run') → run_3kq…; safe to log. */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}

/** A random compact id: prefix + 12 base62 characters (71 bits), e.g. att_3kQ9xZ0aLm2B; for rows no ordering relies on. */
export function newCompactId(prefix: string): string {
  return `${prefix}_${randomBase62(12)}`;
}

/** An opaque secret with a kind prefix (atm_ MCP, atx_ Exec, ato_ owner, ats_ server). Never log it. */
export function newToken(prefix: 'atm' | 'atx' | 'ato' | 'ats' | 'ata'): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** Keyed hash of a secret; stores keep only this. */
export function keyedHash(key: Buffer, secret: string): Buffer {
  return createHmac('sha256', key).update(secret).digest();
}

/** Constant-time equality of two byte strings (false when lengths differ). */
export function constantTimeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Base62 in ASCII order (0-9 < A-Z < a-z), so encoded numbers of one width sort as strings (SQLite BINARY, PostgreSQL "C"). */
const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(n: number, width: number): string {
  let s = '';
  for (let i = 0; i < width; i++) {
    s = B62[n % 62]! + s;
    n = Math.floor(n / 62);
  }
  return s;
}

/** Random base62 characters (a 62-way choice from one byte each, rejection-sampled so every character is equally likely). */
function randomBase62(len: number): string {
  let s = '';
  while (s.length < len) for (const b of randomBytes(len * 2)) if (b < 248 && s.length < len) s += B62[b % 62];
  return s;
}

/** The two generated-id forms: compact (current) and the 32-hex form of ids created before compact ids. */
export const COMPACT_ID_RE = /^[a-z]{2,4}_[0-9A-Za-z]{12}$/;
export const LEGACY_SORTABLE_ID_RE = /^[a-z]{2,4}_[0-9a-f]{32}$/;

/**
 * Time-ordered compact ids: `<prefix>_<7 base62 ms><1 base62 sequence><4 base62 random>` (12 characters after the
 * prefix, about 9 o200k tokens). Within one generator, ids sort (as strings) in creation order even inside one
 * millisecond (62 per millisecond, then the next millisecond is borrowed), so `(createdAt DESC, id DESC)` is true
 * newest-first. 7 base62 digits of milliseconds last until the year 2081. Ids made before this form (32 hex digits)
 * stay valid: orderings compare createdAt first, and old and new ids never share one millisecond of createdAt.
 */
export class SortableIds {
  private lastMs = 0;
  private seq = 0;

  next(prefix: string, nowMs: number): string {
    if (nowMs > this.lastMs) {
      this.lastMs = nowMs;
      this.seq = 0;
    } else if (++this.seq > 61) {
      this.lastMs++; // more than 62 ids in one millisecond: borrow the next one
      this.seq = 0;
    }
    return `${prefix}_${base62(this.lastMs, 7)}${B62[this.seq]}${randomBase62(4)}`;
  }
}
