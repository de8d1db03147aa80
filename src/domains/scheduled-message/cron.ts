// Owns schedule time math: 5-field cron parsing and the next fire instant in an IANA zone (Intl only, no dependency).
// DST: a local time that does not exist (spring forward) fires at the first valid instant after the gap; a repeated local
// time (fall back) fires once, at its first occurrence.
import { AppError } from '../../shared/errors.js';

export interface Cron {
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  days: ReadonlySet<number>;
  months: ReadonlySet<number>;
  weekdays: ReadonlySet<number>;
  /** Standard cron: when both day-of-month and day-of-week are restricted, either matches. */
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
}

const FIELDS: readonly [string, number, number][] = [['minute', 0, 59], ['hour', 0, 23], ['day of month', 1, 31], ['month', 1, 12], ['day of week', 0, 7]];

function field(src: string, name: string, lo: number, hi: number): Set<number> {
  const out = new Set<number>();
  const bad = () => new AppError('validation_failed', `cron ${name} field "${src}" is invalid (use *, n, a-b, */s, a-b/s or lists, ${lo}-${hi})`);
  for (const part of src.split(',')) {
    const m = /^(\*|(\d{1,2})(?:-(\d{1,2}))?)(?:\/(\d{1,2}))?$/.exec(part);
    if (!m) throw bad();
    const a = m[1] === '*' ? lo : Number(m[2]);
    const b = m[1] === '*' ? hi : m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? hi : a;
    const step = m[4] !== undefined ? Number(m[4]) : 1;
    if (a < lo || b > hi || a > b || step < 1) throw bad();
    for (let v = a; v <= b; v += step) out.add(name === 'day of week' && v === 7 ? 0 : v);
  }
  return out;
}

export function parseCron(expr: unknown): Cron {
  if (typeof expr !== 'string' || expr.length > 100) throw new AppError('validation_failed', 'cron must be a string of at most 100 characters');
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5) throw new AppError('validation_failed', 'cron must have 5 fields: minute hour day-of-month month day-of-week');
  const [mi, h, d, mo, w] = parts.map((p, i) => field(p, ...FIELDS[i]!)) as [Set<number>, Set<number>, Set<number>, Set<number>, Set<number>];
  return { minutes: mi, hours: h, days: d, months: mo, weekdays: w, daysRestricted: parts[2] !== '*', weekdaysRestricted: parts[4] !== '*' };
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(zone, f);
  }
  return f;
}

/** A valid IANA zone name (as the runtime's Intl knows it), else validation_failed. */
export function checkZone(zone: unknown): string {
  if (typeof zone !== 'string' || zone.length > 64) throw new AppError('validation_failed', 'timeZone must be an IANA time zone name');
  try {
    formatter(zone);
  } catch {
    throw new AppError('validation_failed', `unknown time zone ${zone}`);
  }
  return zone;
}

/** The zone's wall clock at instant t, as the UTC milliseconds of the same wall-clock reading (seconds truncated). */
export function wallOf(t: number, zone: string): number {
  const p = Object.fromEntries(formatter(zone).formatToParts(new Date(t)).map((x) => [x.type, x.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour) % 24, Number(p.minute), Number(p.second));
}

const offsetAt = (t: number, zone: string) => wallOf(t - (t % 1000), zone) - (t - (t % 1000));

/** The instant a wall-clock reading happens in the zone: its first occurrence, or (inside a gap) the gap's end. */
export function instantOf(wall: number, zone: string): number {
  const before = offsetAt(wall - 86_400_000, zone);
  const after = offsetAt(wall + 86_400_000, zone);
  const hits = [wall - before, wall - after].filter((t) => wallOf(t, zone) === wall).sort((a, b) => a - b);
  if (hits.length) return hits[0]!;
  // Nonexistent local time: binary-search the transition between the two offsets (to the second).
  let lo = wall - after;
  let hi = wall - before;
  if (lo > hi) [lo, hi] = [hi, lo];
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (offsetAt(mid, zone) === after) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Searches at most this many local days ahead for a matching day (covers Feb 29 crons). */
const MAX_DAYS = 8 * 366;

/** The first fire instant strictly after `t`, or undefined when none exists within ~8 years. */
export function nextFire(c: Cron, zone: string, t: number): number | undefined {
  const start = wallOf(t, zone);
  const day0 = Math.floor(start / 86_400_000);
  for (let d = 0; d < MAX_DAYS; d++) {
    const date = new Date((day0 + d) * 86_400_000);
    if (!c.months.has(date.getUTCMonth() + 1)) continue;
    const dom = c.days.has(date.getUTCDate());
    const dow = c.weekdays.has(date.getUTCDay());
    if (!(c.daysRestricted && c.weekdaysRestricted ? dom || dow : dom && dow)) continue;
    for (const h of [...c.hours].sort((a, b) => a - b)) {
      for (const mi of [...c.minutes].sort((a, b) => a - b)) {
        const wall = (day0 + d) * 86_400_000 + h * 3_600_000 + mi * 60_000;
        if (wall < start - 3 * 3_600_000) continue; // well before t in any zone transition
        const at = instantOf(wall, zone);
        if (at > t) return at;
      }
    }
  }
  return undefined;
}
