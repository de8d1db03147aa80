// Owns the turn feed's wake-up: a waiting turn read wakes as soon as a message is written in this server process.
import type { Clock } from '../shared/clock.js';

/**
 * A version counter with waiters. A reader takes `version` before it reads the feed, then waits for a change after
 * that version, so a message written while it was reading is never slept through.
 */
export class FeedSignal {
  private v = 0;
  private readonly waiters = new Set<() => void>();

  get version(): number {
    return this.v;
  }

  /** Called once a transaction that wrote a message has committed (messages.insert); wakes every waiting read. */
  notify(): void {
    this.v++;
    const ws = [...this.waiters];
    this.waiters.clear();
    for (const w of ws) w();
  }

  /** Resolves on the first notify after `since` (at once if one already happened), or after `ms` on the clock. */
  wait(since: number, ms: number, clock: Clock): Promise<void> {
    if (this.v !== since) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        timer.cancel();
        this.waiters.delete(done);
        resolve();
      };
      const timer = clock.setTimer(ms, done);
      this.waiters.add(done);
    });
  }
}
