// Owns identifiers and secrets: random ids, opaque tokens with a kind prefix, keyed hashes and constant-time compares.
import { createHmac, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { AppError } from './errors.js';

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
 * Compact ids are a prefix + 15 decimal digits (more only past 10 server processes, see SortableIds): o200k reads three
 * digits as one token, so 15 digits cost 5 tokens where 12 base62 characters cost about 9 and 32 hex digits about 20.
 * The generated-id forms: compact (current) and the 32-hex form of ids made before compact ids (still valid
 * everywhere; existing rows keep them, see README).
 */
export const COMPACT_ID_RE = /^[a-z]{2,4}_\d{15,17}$/;
export const LEGACY_SORTABLE_ID_RE = /^[a-z]{2,4}_[0-9a-f]{32}$/;

/** Ids one generator makes per millisecond before it borrows the next one (one sequence digit). */
export const IDS_PER_MS = 10;

/**
 * Time-ordered compact ids: `<prefix>_<13 digits of Unix ms><node><1 digit of sequence>`, e.g. msg_176458521541800
 * (ms 1764585215418, node 0, sequence 0).
 *
 * Why a node and not random digits: every server process on one database holds its own node number, claimed through
 * the database with a lease (src/server/id-nodes.ts), so two processes can never make the same id, with no retry on
 * a primary-key conflict and no probability to argue about; random digits would need several more digits (tokens)
 * and a retry at every insert. Nodes 0-9 are one digit (15 digits, 5 tokens), nodes 10-99 two, 100-999 three: an
 * id's length says how wide its node is, so ids of different widths never meet, and the 13-digit ms prefix keeps ids
 * time-ordered as strings across widths. Within one generator, ids sort in creation order even inside one
 * millisecond and when the clock steps back (10 per millisecond, then the next one is borrowed); a generator resumes
 * a node above the high-water millisecond its previous holder reached, so a node changing hands never repeats an id.
 * 13 digits of ms last until 2286. Ids made before this form (32 hex digits) stay valid: orderings compare createdAt
 * first.
 */
export class SortableIds {
  private lastMs = 0;
  private seq = 0;
  private node = '0';
  /** Ids are issued only up to this time (ms) unless it is undefined: the end of the lease's confirmed window. */
  private heldUntil: number | undefined;
  private renew: (() => Promise<void>) | undefined;
  private renewMarginMs = 0;
  private renewing: Promise<void> | undefined;

  /** `node` is this generator's claimed node; a composition that holds no lease (one process, tests) uses node 0. */
  constructor(node = 0, highMs = 0) {
    this.resume(node, highMs);
  }

  /** Switches to `node` (a fresh claim), issuing only above `highMs` and above everything this generator issued. */
  resume(node: number, highMs: number): void {
    this.node = nodeDigits(node);
    this.lastMs = Math.max(this.lastMs, highMs);
    this.seq = IDS_PER_MS - 1; // the next id is in a later millisecond than any issued on this node or by this generator
  }

  /** The newest millisecond an id was issued in (the lease records it as the node's high-water mark). */
  get highMs(): number {
    return this.lastMs;
  }

  /** Lets ids be issued up to `untilMs` (a lease confirmed its node; a later confirmation never shortens the hold). */
  holdUntil(untilMs: number): void {
    this.heldUntil = Math.max(this.heldUntil ?? -Infinity, untilMs);
  }

  /** Refuses ids until the next holdUntil (the node was lost or released). */
  dropHold(): void {
    this.heldUntil = -Infinity;
  }

  /** Installs how a hold is renewed (the lease's heartbeat); ready() calls it once less than `marginMs` of the hold is left. */
  renewWith(renew: () => Promise<void>, marginMs: number): void {
    this.renew = renew;
    this.renewMarginMs = marginMs;
  }

  /**
   * Undefined while ids may be issued for the renewal margin yet (or nothing holds this generator); otherwise the
   * renewal, shared by concurrent callers, so work after a long pause waits for it instead of being refused.
   */
  ready(now: () => number): Promise<void> | undefined {
    if (this.heldUntil === undefined || !this.renew || now() + this.renewMarginMs <= this.heldUntil) return undefined;
    return this.renewUntilHeld(now);
  }

  private async renewUntilHeld(now: () => number): Promise<void> {
    // A renewal begun before a pause can end with a hold that is stale again: renew once more (bounded).
    for (let i = 0; i < 3; i++) {
      await (this.renewing ??= this.renew!().finally(() => (this.renewing = undefined)));
      if (now() + this.renewMarginMs <= this.heldUntil!) return;
    }
    throw new AppError('upstream_unavailable', 'this server process could not confirm its id node; retry shortly');
  }

  next(prefix: string, nowMs: number): string {
    // Correctness invariant: a process that cannot show it still holds its node (it was paused, or its database is
    // unreachable) issues nothing, since another process may have taken the node over by now.
    if (this.heldUntil !== undefined && nowMs > this.heldUntil) throw new AppError('upstream_unavailable', 'this server process has not confirmed its id node lately; retry shortly');
    if (nowMs > this.lastMs) {
      this.lastMs = nowMs;
      this.seq = 0;
    } else if (++this.seq >= IDS_PER_MS) {
      this.lastMs++; // more than IDS_PER_MS ids in one millisecond: borrow the next one
      this.seq = 0;
    }
    return `${prefix}_${String(this.lastMs).padStart(13, '0')}${this.node}${this.seq}`;
  }
}

/** The widest node number (three digits); a database never has more live server processes than this. */
export const NODE_MAX = 999;

function nodeDigits(node: number): string {
  if (!Number.isInteger(node) || node < 0 || node > NODE_MAX) throw new Error(`id node ${node} is outside 0..${NODE_MAX}`);
  return String(node);
}
