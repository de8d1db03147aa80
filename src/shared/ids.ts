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

/** A random compact id: prefix + 15 random decimal digits (about 50 bits), e.g. att_804213379150624; for rows no ordering relies on. */
export function newCompactId(prefix: string): string {
  return `${prefix}_${randomDigits(15)}`;
}

/** An opaque secret with a kind prefix (atm_ MCP, atx_ Exec, ato_ owner, ats_ server). Never log it. */
export function newToken(prefix: 'atm' | 'atx' | 'ato' | 'ats' | 'ata' | 'ati'): string {
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

/** Random decimal digits (rejection-sampled from bytes so every digit is equally likely). */
function randomDigits(len: number): string {
  let s = '';
  while (s.length < len) for (const b of randomBytes(len * 2)) if (b < 250 && s.length < len) s += String(b % 10);
  return s;
}

/**
 * Compact ids are a prefix + 15 decimal digits: o200k reads three digits as one token, so the digits cost 5 tokens
 * where 12 base62 characters cost about 9 and 32 hex digits about 20. The two generated-id forms: compact (current)
 * and the 32-hex form of ids made before compact ids (still valid everywhere; existing rows keep them, see README).
 */
export const COMPACT_ID_RE = /^[a-z]{2,4}_\d{15}$/;
export const LEGACY_SORTABLE_ID_RE = /^[a-z]{2,4}_[0-9a-f]{32}$/;

/**
 * Time-ordered compact ids: `<prefix>_<13 digits of Unix ms><2 digits of sequence>`, e.g. msg_176458521541800.
 * Within one generator (one server process), ids sort as strings in creation order even inside one millisecond (100
 * per millisecond, then the next one is borrowed), so `(createdAt DESC, id DESC)` is true newest-first; 13 digits of
 * ms last until 2286. A second generator on the same rows in the same millisecond is refused by the primary key, never
 * merged. Ids made before this form (32 hex digits) stay valid: orderings compare createdAt first.
 */
export class SortableIds {
  private lastMs = 0;
  private seq = 0;

  next(prefix: string, nowMs: number): string {
    if (nowMs > this.lastMs) {
      this.lastMs = nowMs;
      this.seq = 0;
    } else if (++this.seq > 99) {
      this.lastMs++; // more than 100 ids in one millisecond: borrow the next one
      this.seq = 0;
    }
    return `${prefix}_${String(this.lastMs).padStart(13, '0')}${String(this.seq).padStart(2, '0')}`;
  }
}
