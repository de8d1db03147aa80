// Owns the store's small time helpers: capped exponential backoff, clock-bounded waits, and tracking of background work.
import type { Clock } from '../shared/clock.js';

export interface Backoff {
  readonly baseMs: number;
  readonly maxMs: number;
}

/** Delay before retry number `attempt` (1-based): baseMs · 2^(attempt−1), capped at maxMs. */
export function backoffDelay(b: Backoff, attempt: number): number {
  return Math.min(b.baseMs * 2 ** Math.min(Math.max(attempt, 1) - 1, 30), b.maxMs);
}

/** Resolves true if `p` settles within `ms` of clock time, else false (the wait is bounded, `p` is not canceled). */
export function within(clock: Clock, p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = clock.setTimer(ms, () => resolve(false));
    const settle = () => {
      t.cancel();
      resolve(true);
    };
    p.then(settle, settle);
  });
}

/** Keeps the set of running background promises so callers can wait until none is running. */
export class BackgroundWork {
  private readonly running = new Set<Promise<unknown>>();

  track<T>(p: Promise<T>): Promise<T> {
    this.running.add(p);
    const drop = () => void this.running.delete(p);
    p.then(drop, drop);
    return p;
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
