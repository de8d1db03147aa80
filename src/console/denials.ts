// Owns the console's view of the diagnostic log: counts of recent denial classes, taken from the rate-limited logger's sink.
import type { Clock } from '../shared/clock.js';
import type { WarnSink } from '../shared/rate-limited-log.js';

/** Classes counted per minute over this many minutes. */
const WINDOW_MINUTES = 15;
/** Distinct classes kept (the rate-limited logger bounds its keys too). */
const MAX_CLASSES = 64;

export interface DenialClass {
  /** The diagnostic key without per-authorization ids, e.g. `auth:revoked`, `origin`, `authz:cleanup`. */
  class: string;
  /** Events in the window: lines written plus the lines the rate limit dropped (reported with the next line). */
  count: number;
  lastAt: number;
}

/** A diagnostic key names a class, sometimes with an authorization id after it (`authz:cleanup:rta…`): the id goes. */
export function denialClass(key: string): string {
  return key
    .split(':')
    .filter((p) => !/^rta[_0-9a-z]/i.test(p))
    .join(':')
    .slice(0, 64);
}

/**
 * Wraps the diagnostic sink: every line still goes to the log unchanged, and its class is counted per minute. Only the
 * key and the dropped count are read; no field of the line (which may name ids, never secrets) is kept.
 */
export class DenialCounts {
  private readonly byClass = new Map<string, { minutes: Map<number, number>; lastAt: number }>();

  constructor(private readonly clock: Clock) {}

  wrap(sink: WarnSink): WarnSink {
    return {
      warn: (obj, msg) => {
        sink.warn(obj, msg);
        const key = typeof obj.key === 'string' ? obj.key : 'unknown';
        const dropped = typeof obj.dropped === 'number' ? obj.dropped : 0;
        this.add(denialClass(key), 1 + dropped);
      },
    };
  }

  add(cls: string, n: number): void {
    const now = this.clock.now();
    const minute = Math.floor(now / 60_000);
    let c = this.byClass.get(cls);
    if (!c) {
      if (this.byClass.size >= MAX_CLASSES) {
        const oldest = [...this.byClass].sort((a, b) => a[1].lastAt - b[1].lastAt)[0]!;
        this.byClass.delete(oldest[0]);
      }
      c = { minutes: new Map(), lastAt: now };
      this.byClass.set(cls, c);
    }
    c.minutes.set(minute, (c.minutes.get(minute) ?? 0) + n);
    c.lastAt = now;
    for (const m of c.minutes.keys()) if (m <= minute - WINDOW_MINUTES) c.minutes.delete(m);
  }

  /** Classes seen in the window, most recent first. */
  recent(): DenialClass[] {
    const from = Math.floor(this.clock.now() / 60_000) - WINDOW_MINUTES;
    const out: DenialClass[] = [];
    for (const [cls, c] of this.byClass) {
      let count = 0;
      for (const [m, n] of c.minutes) if (m > from) count += n;
      if (count > 0) out.push({ class: cls, count, lastAt: c.lastAt });
    }
    return out.sort((a, b) => b.lastAt - a.lastAt);
  }
}
