// Owns identifiers and secrets: random ids, opaque tokens with a kind prefix, keyed hashes and constant-time compares.
import { createHmac, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';

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

/** Keyed hash of a secret; stores keep only this. A KeyObject key (createSecretKey, made once) skips re-importing the key per call. */
export function keyedHash(key: Buffer | KeyObject, secret: string): Buffer {
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
 * Numbered ids: `<prefix><w><n>`, the database's counter `n` for its kind (src/server/id-counters.ts) after `w`, the
 * count of n's digits, e.g. tsk11 (task 1), tsk242 (task 42), msg510423 (message 10423). o200k reads the prefix as one
 * token and up to three digits as one more, so an id costs 2 tokens up to 99 and 3 up to 99,999, where the compact
 * form before them (prefix _ 15 digits) cost 7. The width digit keeps string order numeric order (tsk19 < tsk210),
 * so ids still sort in creation order inside one millisecond, which the orderings' tie-break on id relies on.
 *
 * Why a database counter: it never repeats across server processes with no node lease, clock or retry to argue
 * about. Ids are guessable, as the millisecond ids before them were: reads authorize every id (a hidden row answers
 * not_found, like a missing one). A counter tells how many rows of a kind were ever made, no more.
 */
export const NUMBERED_ID_RE = /^[a-z]{2,4}[1-9][1-9]\d{0,8}$/;
/** The older generated forms, still valid everywhere (existing rows keep them, see README): compact, then 32-hex. */
export const COMPACT_ID_RE = /^[a-z]{2,4}_\d{15,17}$/;
export const LEGACY_SORTABLE_ID_RE = /^[a-z]{2,4}_[0-9a-f]{32}$/;

/** The kinds the database numbers, each with its counter (a migration adds one: 32 made the first 14, 33 mem, agt and dm). */
export const NUMBERED_KINDS = ['msg', 'tsk', 'rev', 'prj', 'team', 'sch', 'run', 'wfr', 'wfs', 'wfp', 'wft', 'kbs', 'kbd', 'apr', 'mem', 'agt', 'dm'] as const;
export type NumberedKind = (typeof NUMBERED_KINDS)[number];
/** The largest counter a numbered id can say (nine digits). */
export const NUMBERED_MAX = 999_999_999;

/** The id of counter value `n` of `kind`. */
export function numberedId(kind: NumberedKind, n: number): string {
  if (!Number.isSafeInteger(n) || n < 1 || n > NUMBERED_MAX) throw new Error(`${kind} counter ${n} is outside 1..${NUMBERED_MAX}`);
  const d = String(n);
  return `${kind}${d.length}${d}`;
}
