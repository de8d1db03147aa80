// Owns one LISTEN connection per PostgreSQL store: a notification on its channel calls the handlers; a lost connection is re-opened with backoff.
import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** The channel a committed message notifies (pg_notify in the message's own transaction: delivered on commit only). */
export const FEED_CHANNEL = 'agentteam_feed';
const MAX_BACKOFF_MS = 5_000;

export class PgListener {
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private attempt = 0;
  private readonly handlers = new Set<() => void>();

  /** The NOTIFY payload of this store's own commits: their wake-up already ran in this process, so they are skipped here. */
  readonly origin = randomUUID();

  constructor(private readonly url: string) {}

  /** Calls `fn` on every notification (and once after each (re)connect, for what a lost connection missed). */
  on(fn: () => void): void {
    this.handlers.add(fn);
    if (!this.client && !this.timer && !this.closed) this.connect();
  }

  private wake(): void {
    for (const h of this.handlers) h();
  }

  private connect(): void {
    const c = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5_000, application_name: 'agentteam-listen' });
    this.client = c;
    // Never crashes the process, never logs the URL: a lost listen connection is re-opened; readers keep their recheck meanwhile.
    const lost = () => {
      if (this.client !== c) return;
      this.client = undefined;
      c.end().catch(() => undefined);
      if (this.closed) return;
      const ms = Math.min(MAX_BACKOFF_MS, 100 * 2 ** this.attempt++);
      this.timer = setTimeout(() => {
        this.timer = undefined;
        if (!this.closed) this.connect();
      }, ms);
      this.timer.unref();
    };
    c.on('error', lost);
    c.on('end', lost);
    c.on('notification', (n) => n.channel === FEED_CHANNEL && n.payload !== this.origin && this.wake());
    c.connect()
      .then(() => c.query(`LISTEN ${FEED_CHANNEL}`))
      .then(() => {
        this.attempt = 0;
        this.wake();
      }, lost);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const c = this.client;
    this.client = undefined;
    await c?.end().catch(() => undefined);
  }
}
