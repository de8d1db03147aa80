// Owns size bounds in serialized bytes: a field's JSON-escaped UTF-8 size, the validation that names field and limit, clipping of legacy rows, and page fitting.
import { AppError } from './errors.js';
import { NOT_IN_NAMES } from './visible.js';

/** Exec and MCP results are capped at 64 KiB of serialized JSON (spec §Result Boundaries). */
export const RESULT_BUDGET = 64 * 1024;
/**
 * Every stored item's worst case (all fields at their bounds) stays under this. An MCP result carries its data twice
 * (structuredContent and the same JSON escaped again as text, ≤ 3× the item's bytes), so 16 KiB keeps a single item
 * under 48 KiB there and under a quarter of the budget in Exec.
 */
export const ITEM_BYTES_MAX = 16 * 1024;
/** The items of one server page (their JSON array) stay under this, leaving room for envelope, cursor and projection. */
export const PAGE_ITEMS_BYTES_MAX = 48 * 1024;
/** Longest id the id grammar allows (`^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$`), for worst-case sizes. */
export const ID_BYTES_MAX = 100;

/** UTF-8 bytes of JSON.stringify(v): escaped control characters, quotes and non-ASCII all count. */
export function jsonBytes(v: unknown): number {
  return Buffer.byteLength(JSON.stringify(v) ?? '', 'utf8');
}

/** Serialized bytes of a string's content (its JSON form without the two quotes). */
export function textBytes(s: string): number {
  return jsonBytes(s) - 2;
}

/** One stored text field: characters (schema maxLength) and serialized bytes; `min` characters, non-blank when min > 0. */
export interface TextBound {
  readonly field: string;
  readonly min: number;
  readonly chars: number;
  readonly bytes: number;
}

/** Validates a text field against its bound; validation_failed names the field and the limit it broke. */
export function checkText(v: unknown, b: TextBound): string {
  if (typeof v !== 'string' || v.length < b.min || v.length > b.chars) {
    throw new AppError('validation_failed', `${b.field} must be a string of ${b.min} to ${b.chars} characters`);
  }
  if (b.min > 0 && v.trim().length === 0) throw new AppError('validation_failed', `${b.field} must not be blank`);
  const n = textBytes(v);
  if (n > b.bytes) {
    throw new AppError('validation_failed', `${b.field} is ${n} bytes as JSON; the limit is ${b.bytes} bytes (escaped control characters, quotes and non-ASCII count)`);
  }
  return v;
}

/** A name (shown in prompts, lists and terminals): a bounded text on one line of visible characters. */
export function checkName(v: unknown, b: TextBound): string {
  const s = checkText(v, b);
  if (NOT_IN_NAMES.test(s)) throw new AppError('validation_failed', `${b.field} must be one line without control or bidirectional-override characters`);
  return s;
}

/** An optional field: undefined passes through. */
export function checkOptionalText(v: unknown, b: TextBound): string | undefined {
  return v === undefined ? undefined : checkText(v, b);
}

export const TRUNCATED_MARKER = '…[truncated]';

/**
 * A value stored before its bound existed (or by another writer), projected to fit: the longest prefix (whole code
 * points) whose serialized size plus the marker stays within `bytes`. Values within the bound are returned unchanged.
 */
export function clipText(s: string, bytes: number): string {
  if (textBytes(s) <= bytes) return s;
  const room = bytes - textBytes(TRUNCATED_MARKER);
  const cps = Array.from(s);
  let lo = 0;
  let hi = cps.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (textBytes(cps.slice(0, mid).join('')) <= room) lo = mid;
    else hi = mid - 1;
  }
  return cps.slice(0, lo).join('') + TRUNCATED_MARKER;
}

/**
 * How many leading items fit in `budget` bytes as a JSON array. Always at least one when there is any item, so a page
 * never ends without a way on (every item is bounded under ITEM_BYTES_MAX by construction, far below any budget).
 */
export function fittingPrefix(items: readonly unknown[], budget: number = PAGE_ITEMS_BYTES_MAX): number {
  let used = 2;
  for (let i = 0; i < items.length; i++) {
    used += jsonBytes(items[i]) + (i > 0 ? 1 : 0);
    if (used > budget) return Math.max(1, i);
  }
  return items.length;
}
