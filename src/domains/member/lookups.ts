// Owns batched credential lookups: authentications that arrive in one event-loop turn share one query (one round trip).
import type { Sql } from '../../server/store/types.js';

/** Credential hashes per query; a larger batch is split (bounded statement size and parameter count). */
export const LOOKUP_BATCH_MAX = 64;

interface Waiter<R> {
  resolve(row: R | undefined): void;
  reject(e: unknown): void;
}

/**
 * Looks rows up by a unique binary key, many at once. Each lookup still reads the database after it was asked for
 * (nothing is cached across turns), so a removed credential stops working exactly as with one query per request.
 */
export class BatchedLookup<R> {
  private pending = new Map<string, Array<Waiter<R>>>();
  private scheduled = false;

  /** `query(keys)` returns the rows whose key is among `keys`; `keyOf(row)` gives a row's key back. */
  constructor(
    private readonly store: Pick<Sql, 'all'>,
    private readonly query: (n: number) => string,
    private readonly keyOf: (row: R) => Buffer,
  ) {}

  find(key: Buffer): Promise<R | undefined> {
    return new Promise((resolve, reject) => {
      const k = key.toString('hex');
      const ws = this.pending.get(k);
      if (ws) ws.push({ resolve, reject });
      else this.pending.set(k, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        // After this turn's I/O callbacks: every request parsed in the same turn joins the batch; no timer, no delay.
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = new Map();
    const keys = [...batch.keys()];
    for (let i = 0; i < keys.length; i += LOOKUP_BATCH_MAX) void this.run(keys.slice(i, i + LOOKUP_BATCH_MAX), batch);
  }

  private async run(keys: string[], batch: Map<string, Array<Waiter<R>>>): Promise<void> {
    try {
      const rows = await this.store.all<R>(this.query(keys.length), keys.map((k) => Buffer.from(k, 'hex')));
      const byKey = new Map(rows.map((r) => [this.keyOf(r).toString('hex'), r]));
      for (const k of keys) for (const w of batch.get(k)!) w.resolve(byKey.get(k));
    } catch (e) {
      for (const k of keys) for (const w of batch.get(k)!) w.reject(e);
    }
  }
}
