// Owns logging: pino to home/logs with secret redaction, and the rate-limited diagnostic logger for auth failures.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import type { Clock } from './clock.js';

export type { Logger };

// Security invariant: authorization headers and any token-like field are never written to logs.
export const REDACT_PATHS = [
  'authorization',
  'token',
  'secret',
  'credential',
  '*.authorization',
  '*.token',
  '*.secret',
  '*.credential',
  '*.headers.authorization',
  '*.headers.cookie',
  'req.headers.authorization',
  'headers.authorization',
  '*.tokenFile',
  'tokenFile',
];

/** `dir`: logs to DIR/NAME.log; `file`: that file (0600); `stdout`: JSON lines on stdout; none of them: disabled. */
export function createLogger(opts: { dir?: string; file?: string; stdout?: boolean; name: string; level?: string }): Logger {
  const options = { name: opts.name, level: opts.level ?? process.env.AGENTTEAM_LOG_LEVEL ?? 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  if (opts.stdout) return pino(options, pino.destination({ dest: 1, sync: true }));
  if (opts.file) return pino(options, pino.destination({ dest: opts.file, mkdir: true, sync: true, mode: 0o600 }));
  if (!opts.dir) return pino({ ...options, enabled: false });
  mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  const dest = pino.destination({ dest: join(opts.dir, `${opts.name}.log`), mkdir: true, sync: true, mode: 0o600 });
  return pino(options, dest);
}

/**
 * A per-key token bucket in front of a logger: at most `burst` lines per key, refilled at `perSecond`.
 * When a key is allowed again after dropping lines, its next line reports how many were dropped.
 */
export class RateLimitedLogger {
  private buckets = new Map<string, { tokens: number; at: number; dropped: number }>();

  constructor(
    private readonly log: Logger,
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
