// Owns what every domain module shares: its injected dependencies, the calling member (Actor), and DTO time formatting.
import type { SortableIds } from '../../shared/ids.js';
import type { Clock } from '../../shared/clock.js';
import { AppError } from '../../shared/errors.js';
import type { MemberKind } from '../../server-client/api.js';
import type { CursorCodec } from '../pagination.js';
import type { Store } from '../store/types.js';

export interface DomainDeps {
  store: Store;
  clock: Clock;
  cursors: CursorCodec;
  /** Time-ordered ids for rows listed newest first. */
  ids: SortableIds;
}

/** The authenticated member a call acts as. */
export interface Actor {
  id: string;
  name: string;
  kind: MemberKind;
  role: 'owner' | 'member';
}

/** The Human owner reads and writes everything in the workspace. */
export function isOwner(a: Actor): boolean {
  return a.role === 'owner';
}

/** Security invariant: owner-only calls deny every other member. */
export function requireOwner(a: Actor, what: string): void {
  if (!isOwner(a)) throw new AppError('denied', `only the workspace owner may ${what}`);
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A required string field with bounds, trimmed check only for emptiness. */
export function text(v: unknown, field: string, min: number, max: number): string {
  if (typeof v !== 'string' || v.length < min || v.length > max) {
    throw new AppError('validation_failed', `${field} must be a string of ${min} to ${max} characters`);
  }
  if (min > 0 && v.trim().length === 0) throw new AppError('validation_failed', `${field} must not be blank`);
  return v;
}

/** Generated ids: prefix + URL-safe random; ordering never relies on them except as the final tie-break. */
export const ID_RE = /^[A-Za-z0-9_-]{1,100}$/;
