// Owns the rate-limited diagnostic logger: a per-key token bucket in front of any warn sink (pino in the daemon, stderr JSON lines in helpers).
import type { Clock } from './clock.js';

/** What the limiter writes to: pino's `warn(obj, msg)` shape, so helpers need not load pino. */
export interface WarnSink {
  warn(obj: Record<string, unknown>, msg: string): void;
}

/**
 * A per-key token bucket in front of a logger: at most `burst` lines per key, refilled at `perSecond`.
 * When a key is allowed again after dropping lines, its next line reports how many were dropped.
 */
export class RateLimitedLogger {
  private buckets = new Map<string, { tokens: number; at: number; dropped: number }>();

  constructor(
    private readonly log: WarnSink,
    private readonly clock: Clock,
    private readonly burst = 10,
    private readonly perSecond = 1,
    private readonly maxKeys = 1024,
  ) {}

  /** Logs `msg` with `fields` under `key` unless the key's bucket is empty. Returns whether it was written. */
  warn(key: string, fields: Record<string, unknown>, msg: string): boolean {
    const now = this.clock.now();
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size >= this.maxKeys) this.buckets.clear();
      b = { tokens: this.burst, at: now, dropped: 0 };
      this.buckets.set(key, b);
    }
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    if (b.tokens < 1) {
      b.dropped++;
      return false;
    }
    b.tokens -= 1;
    const dropped = b.dropped;
    b.dropped = 0;
    this.log.warn(dropped > 0 ? { ...fields, key, dropped } : { ...fields, key }, msg);
    return true;
  }
}
