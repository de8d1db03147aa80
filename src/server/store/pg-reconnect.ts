// Owns telling a lost PostgreSQL connection from any other failure, and the reconnect loop: bounded backoff through the Clock, fail fast while down.
import type { Clock, Timer } from '../../shared/clock.js';
import { AppError } from '../../shared/errors.js';

export const sqlState = (e: unknown): string | undefined =>
  typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined;

/**
 * True when `e` says the database connection is gone or cannot be had: a socket error (ECONNRESET, ECONNREFUSED, EPIPE…),
 * SQLSTATE class 08 (connection exception), 57P (operator intervention: admin shutdown, crash, cannot connect now),
 * 53300 (too many connections), or a driver-level error with no SQLSTATE at all ("Connection terminated", "timeout
 * exceeded when trying to connect", "Client has encountered a connection error and is not queryable"). A TypeError or
 * RangeError is our bug, never the database's; any other SQLSTATE is a statement failure.
 */
export function isConnectionLoss(e: unknown): boolean {
  if (e instanceof AppError || e instanceof TypeError || e instanceof RangeError || !(e instanceof Error)) return false;
  const code = sqlState(e);
  if (code === undefined) return true;
  if (/^E[A-Z]+$/.test(code)) return true;
  return code.startsWith('08') || code.startsWith('57P') || code === '53300';
}

/** Security invariant: the message names no host, user or URL. */
export function databaseUnavailable(): AppError {
  return new AppError('upstream_unavailable', 'the database is unavailable', { hint: 'retry shortly' });
}

export interface ReconnectOptions {
  clock: Clock;
  /** One connection attempt (connect + SELECT 1); rejects when the database is still unreachable. */
  probe: () => Promise<void>;
  /** First retry delay (default 100 ms); doubles per failed probe up to maxDelayMs (default 5 s). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Told when the database goes down (attempt 0) and each failed probe, and when it is back. */
  onChange?: (state: { up: boolean; attempt: number; nextDelayMs?: number }) => void;
}

/**
 * After a lost connection the store probes the database at once, then after 100 ms, 200 ms, … capped at 5 s, until a
 * probe succeeds. While the first probe is pending requests still try the pool (a single terminated backend is not an
 * outage); once a probe has failed they fail fast with upstream_unavailable instead of each waiting for a connect
 * timeout, so a restart costs a bounded, typed failure window and never a queue of stuck requests.
 */
export class Reconnector {
  private down = false;
  private failed = 0;
  private timer: Timer | undefined;
  private closed = false;

  constructor(private readonly opts: ReconnectOptions) {}

  /** False while the database is known to be unreachable (a probe failed and none has succeeded since). */
  get available(): boolean {
    return !this.down || this.failed === 0;
  }

  /** Failed probes since the connection was lost (0 when up). */
  get attempts(): number {
    return this.failed;
  }

  /** Throws upstream_unavailable when the database is known to be down. */
  check(): void {
    if (!this.available) throw databaseUnavailable();
  }

  /** A connection was lost: start probing unless already doing so. */
  lost(): void {
    if (this.closed || this.down) return;
    this.down = true;
    this.failed = 0;
    this.opts.onChange?.({ up: false, attempt: 0 });
    this.schedule(0);
  }

  close(): void {
    this.closed = true;
    this.timer?.cancel();
  }

  private schedule(ms: number): void {
    this.timer = this.opts.clock.setTimer(ms, () => void this.attempt());
  }

  private async attempt(): Promise<void> {
    if (this.closed) return;
    try {
      await this.opts.probe();
      if (this.closed) return;
      this.down = false;
      this.failed = 0;
      this.opts.onChange?.({ up: true, attempt: 0 });
    } catch {
      if (this.closed) return;
      this.failed++;
      const delay = Math.min(this.opts.maxDelayMs ?? 5000, (this.opts.baseDelayMs ?? 100) * 2 ** (this.failed - 1));
      this.opts.onChange?.({ up: false, attempt: this.failed, nextDelayMs: delay });
      this.schedule(delay);
    }
  }
}
