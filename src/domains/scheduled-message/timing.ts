// Owns when a schedule fires: validating `at` / `cron` + `timeZone` against the bounds (how far ahead, how often), the
// next fire instant after a moment, and how many windows a late fire stands for.
import { AppError } from '../../shared/errors.js';
import { checkZone, nextFire, parseCron, type Cron } from './cron.js';
import { MAX_AHEAD_MS, MIN_INTERVAL_MINUTES } from './contract.js';

/** The stored timing of one schedule: exactly one of `at` (ms) or `cron` (with its zone). */
export type Timing = { at: number; cron: null; zone: null } | { at: null; cron: string; zone: string };

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
/** The compact time results show (`20260501T090000Z`): accepted back, so a shown `at` can be passed to update unchanged. */
const COMPACT_RE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

/** A cron whose minutes are at least MIN_INTERVAL_MINUTES apart (circularly, across the hour); else validation_failed. */
function checkInterval(c: Cron): void {
  const m = [...c.minutes].sort((a, b) => a - b);
  if (m.length < 2) return;
  const gaps = m.slice(1).map((v, i) => v - m[i]!).concat(60 - m[m.length - 1]! + m[0]!);
  if (Math.min(...gaps) < MIN_INTERVAL_MINUTES) throw new AppError('validation_failed', `cron fires too often: minutes must be at least ${MIN_INTERVAL_MINUTES} apart`);
}

/** Validates the timing fields of a create (or the merged fields of an update) at `now`. */
export function checkTiming(input: { at?: unknown; cron?: unknown; timeZone?: unknown }, now: number): Timing {
  const hasAt = input.at !== undefined && input.at !== null;
  const hasCron = input.cron !== undefined && input.cron !== null;
  if (hasAt === hasCron) throw new AppError('validation_failed', 'give exactly one of at (a one-shot instant) or cron (a 5-field expression)');
  if (hasAt) {
    if (input.timeZone !== undefined && input.timeZone !== null) throw new AppError('validation_failed', 'timeZone applies to cron only; give at with an offset');
    const text = typeof input.at === 'string' ? input.at.replace(COMPACT_RE, '$1-$2-$3T$4:$5:$6Z') : input.at;
    if (typeof text !== 'string' || !ISO_RE.test(text) || Number.isNaN(Date.parse(text))) throw new AppError('validation_failed', 'at must be an ISO-8601 instant with an offset, e.g. 2026-05-01T09:00:00Z');
    const at = Date.parse(text);
    if (at <= now) throw new AppError('validation_failed', 'at must be in the future');
    if (at > now + MAX_AHEAD_MS) throw new AppError('validation_failed', 'at must be at most 366 days ahead');
    return { at, cron: null, zone: null };
  }
  const cron = parseCron(input.cron);
  checkInterval(cron);
  const zone = checkZone(input.timeZone ?? 'UTC');
  const first = nextFire(cron, zone, now);
  if (first === undefined || first > now + MAX_AHEAD_MS) throw new AppError('validation_failed', 'cron must fire within the next 366 days');
  return { at: null, cron: (input.cron as string).trim().split(/\s+/).join(' '), zone };
}

/** The next fire strictly after `t`: the one-shot instant if still ahead, else none; a cron's next window. */
export function nextAfter(tm: Timing, t: number): number | null {
  if (tm.at !== null) return tm.at > t ? tm.at : null;
  return nextFire(parseCron(tm.cron), tm.zone, t) ?? null;
}

/** Bound on counting collapsed windows after downtime (the count saturates there). */
export const COUNT_MAX = 1000;

/** Windows of a cron in (from, until], at most COUNT_MAX; one-shots have none. */
export function windowsBetween(tm: Timing, from: number, until: number): number {
  if (tm.cron === null) return 0;
  const c = parseCron(tm.cron);
  let n = 0;
  for (let t = nextFire(c, tm.zone, from); t !== undefined && t <= until && n < COUNT_MAX; t = nextFire(c, tm.zone, t)) n++;
  return n;
}
