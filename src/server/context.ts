// Owns what every domain's server service shares: its injected dependencies, the calling member (Actor), and DTO time formatting.
import { ID_RE } from '../shared/ids.js';
import type { IdCounters } from './id-counters.js';
/** Who a member is: a person or an agent. */
export type MemberKind = 'human' | 'agent';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { checkText } from '../shared/bounds.js';
import type { CursorCodec } from './pagination.js';
import type { Store } from './store/types.js';
import type { WorkspaceMeta } from './workspace.js';
import type { FeedSignal } from './feed-signal.js';

export interface DomainDeps {
  store: Store;
  clock: Clock;
  cursors: CursorCodec;
  /** New ids of the numbered kinds, counted by the database in the caller's transaction. */
  ids: IdCounters;
  /** The workspace identity and server secrets (shared by every transaction view). */
  meta: WorkspaceMeta;
  /** Wakes waiting turn reads when a message is written in this process (absent: reads only recheck on a timer). */
  feed?: FeedSignal;
}

/** The authenticated member a call acts as. */
export interface Actor {
  id: string;
  name: string;
  kind: MemberKind;
  role: 'owner' | 'admin' | 'member';
}

/** The Human owner reads and writes everything in the workspace. */
export function isOwner(a: Actor): boolean {
  return a.role === 'owner';
}

/** Security invariant: owner-or-admin calls deny every other member. */
export function requireAdmin(a: Actor, what: string): void {
  if (a.role !== 'owner' && a.role !== 'admin') throw new AppError('denied', `only the workspace owner or an admin may ${what}`);
}

/** Security invariant: owner-only calls deny every other member. */
export function requireOwner(a: Actor, what: string): void {
  if (!isOwner(a)) throw new AppError('denied', `only the workspace owner may ${what}`);
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * A string field bounded in characters and, by default, in as many serialized JSON bytes (escaped control characters,
 * quotes and non-ASCII count); domains with their own byte bound pass it (shared/bounds.ts checkText).
 */
export function text(v: unknown, field: string, min: number, max: number, maxBytes = max): string {
  return checkText(v, { field, min, chars: max, bytes: maxBytes });
}

export { ID_RE };

/** An id from a request: not_found (like a missing row) unless it matches the id grammar. */
export function idOf(v: unknown, what: string): string {
  if (typeof v !== 'string' || !ID_RE.test(v)) throw new AppError('not_found', `${what} not found`);
  return v;
}
