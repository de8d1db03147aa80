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

/**
 * Time-ordered ids: `<prefix>_<12 hex ms><4 hex sequence><16 hex random>`. Within one generator, ids sort (as strings)
 * in creation order even inside one millisecond, so `(createdAt DESC, id DESC)` is true newest-first.
 */
export class SortableIds {
  private lastMs = 0;
  private seq = 0;

  next(prefix: string, nowMs: number): string {
    if (nowMs > this.lastMs) {
      this.lastMs = nowMs;
      this.seq = 0;
    } else if (++this.seq > 0xffff) {
      this.lastMs++; // more than 65,536 ids in one millisecond: borrow the next one
      this.seq = 0;
    }
    return `${prefix}_${this.lastMs.toString(16).padStart(12, '0')}${this.seq.toString(16).padStart(4, '0')}${randomBytes(8).toString('hex')}`;
  }
}
