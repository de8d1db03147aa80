// Owns the PostgreSQL store: a pg Pool behind the Store seam, `?` → $n, serializable transactions with retry, savepoints, migrations.
import pg from 'pg';
import { systemClock, type Clock } from '../../shared/clock.js';
import { AppError } from '../../shared/errors.js';
import { duplicateKey, isPgUniqueViolation } from './errors.js';
import type { Migration } from './migrations.js';
import { migratePostgres } from './pg-migrations.js';
import { PgListener } from './pg-listen.js';
import { AutocommitPipeline } from './pg-pipeline.js';
import { StatementCache } from './pg-statements.js';
import { databaseUnavailable, isConnectionLoss, Reconnector, sqlState, type ReconnectOptions } from './pg-reconnect.js';
import { TxView } from './tx-view.js';
import type { Sql, SqlValue, Store } from './types.js';

export interface OpenPostgresOptions {
  /** The schema history (assembleSchema(domains).postgres from the composition root); tests pass a prefix to build an older database. */
  migrations: readonly Migration[];
  clock?: Clock;
  /** Pool size per server process (default 10). */
  maxConnections?: number;
  /** Shared pipelined connections for statements outside a transaction (default 2; 0 sends them through the pool). */
  pipelineLanes?: number;
  /** Attempts for a transaction that hits a serialization failure, deadlock or concurrent duplicate (default 12). */
  maxAttempts?: number;
  /** Told about connection failures (idle or checked out); never given the connection string. */
  onPoolError?: (e: Error) => void;
  /** Told when the database goes down and comes back (the reconnect loop's state). */
  onReconnect?: ReconnectOptions['onChange'];
}

/** SQLSTATEs after which the whole transaction is re-run: serialization_failure, deadlock_detected, unique_violation. */
const RETRYABLE = new Set(['40001', '40P01', '23505']);
const INT8_OID = 20;

/** A connection-level failure becomes upstream_unavailable (502), not internal: the server is fine, its engine is not. */
function unavailable(e: unknown, checkout = false): AppError | undefined {
  return checkout || isConnectionLoss(e) ? databaseUnavailable() : undefined;
}

export { toPgPlaceholders } from './pg-statements.js';

/** A pg query config: text, values and, for a prepared statement, its name. */
type Query = { text: string; values: unknown[]; name?: string };
interface Queryable {
  query(q: Query): Promise<pg.QueryResult>;
}

/** One transaction's (or the pool's) query handle. */
class PgSql implements Sql {
  /** Set when the transaction has ended; a late continuation must not reuse the released connection. */
  ended = false;
  /** A retryable failure seen by any statement: the transaction is doomed and will be re-run, even if fn swallowed it. */
  doomed: unknown = undefined;
  /** A non-retryable statement failure not yet undone by ROLLBACK TO SAVEPOINT: the transaction cannot commit. */
  aborted = false;
  savepoints = 0;
  /** The connection was lost during this transaction: whatever fn made of the failure, the answer is upstream_unavailable. */
  lost = false;
  /** Run by the outer transaction after COMMIT (a re-run attempt gets a new handle, so a failed attempt's are dropped). */
  readonly commits: Array<() => void> = [];
  afterCommit(fn: () => void): void {
    if (this.inTx) this.commits.push(fn);
    else fn();
  }

  constructor(
    readonly conn: Queryable,
    readonly inTx: boolean,
    private readonly statements: StatementCache,
    readonly owner?: PostgresStore,
    private readonly onLost?: () => void,
  ) {}

  async query(sql: string, params: readonly SqlValue[]): Promise<pg.QueryResult> {
    const st = this.statements.get(sql);
    try {
      return await this.conn.query(st.name ? { text: st.text, name: st.name, values: params as unknown[] } : { text: st.text, values: params as unknown[] });
    } catch (e) {
      if (this.inTx && RETRYABLE.has(sqlState(e) ?? '')) this.doomed ??= e;
      else if (this.inTx) this.aborted = true;
      if (isConnectionLoss(e)) {
        this.lost = true;
        this.onLost?.();
        throw databaseUnavailable();
      }
      // Security invariant: a duplicate key surfaces as the same generic conflict as on SQLite, never the SQL or values.
      throw isPgUniqueViolation(e) ? duplicateKey() : e;
    }
  }

  async get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return (await this.query(sql, params)).rows[0] as T | undefined;
  }
  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return (await this.query(sql, params)).rows as T[];
  }
  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return (await this.query(sql, params)).rowCount ?? 0;
  }
}

/**
 * Transactions run at SERIALIZABLE on one pooled connection, so a read-modify-write (revision check, idempotency
 * claim, task transition) behaves as on SQLite's single writer even with several server processes on one database:
 * the loser of a race gets a serialization failure and its whole transaction is re-run, where it sees the winner's
 * commit and answers like any stale request (conflict). A caller passes its transaction on with `within(sql)` (no
 * ambient joining); a nested `tx` on that view is a SAVEPOINT, as in the SQLite store.
 */
class PostgresStore implements Store {
  readonly dialect = 'postgres' as const;
  private closed = false;
  /** Told when a checked-out client fails between statements. */
  onClientError: ((e: Error) => void) | undefined;
  private readonly plain: PgSql;
  private readonly statements = new StatementCache();

  constructor(
    private readonly pool: pg.Pool,
    readonly schemaVersion: number,
    private readonly maxAttempts: number,
    private readonly clock: Clock,
    private readonly reconnect: Reconnector,
    private readonly pipeline?: AutocommitPipeline,
  ) {
    // Statements outside a transaction ride the pipeline when a lane can take them, else the pool.
    const plain: Queryable = { query: (q) => pipeline?.query(q.text, q.values, q.name) ?? pool.query(q) };
    this.plain = new PgSql(plain, false, this.statements, undefined, () => reconnect.lost());
  }

  private handle(): PgSql {
    if (this.closed) throw new AppError('upstream_unavailable', 'store is closed');
    this.reconnect.check();
    return this.plain;
  }

  async get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.handle().get<T>(sql, params);
  }
  async all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.handle().all<T>(sql, params);
  }
  async run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.handle().run(sql, params);
  }

  async tx<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    if (this.closed) throw new AppError('upstream_unavailable', 'store is closed');
    this.reconnect.check();
    return this.outer(fn);
  }

  within(sql: Sql): Store {
    // Only a live transaction handle of this store may be joined; the pool handle is not a transaction.
    if (!(sql instanceof PgSql) || sql.owner !== this || !sql.inTx || sql.ended) throw new Error('within() needs a live transaction handle of this store');
    return new TxView(this, sql, (h, fn) => this.savepoint(h as PgSql, fn));
  }

  async savepoint<T>(a: PgSql, fn: (sql: Sql) => Promise<T>): Promise<T> {
    if (this.closed) throw new AppError('upstream_unavailable', 'store is closed');
    const name = `sp_${++a.savepoints}`;
    const wasAborted = a.aborted;
    await a.query(`SAVEPOINT ${name}`, []);
    try {
      const out = await fn(a);
      if (a.doomed) throw a.doomed;
      await a.query(`RELEASE SAVEPOINT ${name}`, []);
      return out;
    } catch (e) {
      // A doomed transaction is re-run from the top; anything else is undone to the savepoint, as on SQLite.
      if (!a.doomed) {
        await a.query(`ROLLBACK TO SAVEPOINT ${name}`, []);
        await a.query(`RELEASE SAVEPOINT ${name}`, []);
        a.aborted = wasAborted;
      }
      throw e;
    }
  }

  private async outer<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect().catch((e: unknown) => {
        this.reconnect.lost();
        throw unavailable(e, true) ?? e;
      });
      const h = new PgSql(client, true, this.statements, this, () => this.reconnect.lost());
      let broken: Error | undefined;
      // Security invariant (availability): a checked-out client's 'error' (backend terminated, socket reset between
      // statements) is handled here; pg-pool listens only on idle clients, and an unhandled 'error' ends the process.
      const onClientError = (e: Error) => {
        broken = e;
        h.lost = true;
        this.reconnect.lost();
        this.onClientError?.(e);
      };
      client.on('error', onClientError);
      try {
        await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE').catch((e: Error) => {
          broken = e;
          if (isConnectionLoss(e)) this.reconnect.lost();
          throw unavailable(e) ?? e;
        });
        let out: T | undefined;
        let failure: { e: unknown } | undefined;
        try {
          out = await fn(h);
        } catch (e) {
          failure = { e };
        }
        if (!failure && !h.doomed) {
          // PostgreSQL turns COMMIT of a failed transaction into a silent ROLLBACK; never report that as success.
          if (h.aborted) failure = { e: new AppError('internal', 'a statement failed inside the transaction') };
          else {
            try {
              await h.query('COMMIT', []);
              for (const f of h.commits) f();
              return out as T;
            } catch (e) {
              if (!h.doomed) failure = { e };
            }
          }
        }
        await client.query('ROLLBACK').catch((e: Error) => void (broken = e));
        // A connection lost mid-transaction is upstream_unavailable whatever fn made of it (a swallowed failure must
        // not become not_found, nor a COMMIT of an aborted transaction become internal).
        if (h.lost) {
          broken ??= new Error('connection lost');
          throw databaseUnavailable();
        }
        // A duplicate key is re-run a couple of times (the re-run sees the winner's row and answers in domain terms);
        // a genuine duplicate then surfaces as the same conflict SQLite gives.
        const dup = isPgUniqueViolation(h.doomed);
        if (h.doomed && attempt < (dup ? Math.min(3, this.maxAttempts) : this.maxAttempts)) {
          await backoff(this.clock, attempt);
          continue;
        }
        if (dup) throw duplicateKey();
        if (h.doomed) throw new AppError('conflict', 'the request kept conflicting with concurrent changes', { hint: 'retry the request' });
        throw failure!.e;
      } finally {
        h.ended = true;
        client.release(broken);
        client.off('error', onClientError);
      }
    }
  }

  /** Set by openPostgresStore: the store's one LISTEN connection, opened on the first onFeedCommit. */
  listener: PgListener | undefined;

  onFeedCommit(fn: () => void): void {
    this.listener?.on(fn);
  }

  get feedOrigin(): string | undefined {
    return this.listener?.origin;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.listener?.close();
    this.reconnect.close();
    await this.pipeline?.close();
    await this.pool.end();
  }
}

/** Short, jittered, growing pause before re-running a transaction that lost a race. */
function backoff(clock: Clock, attempt: number): Promise<void> {
  const ms = Math.min(50, 2 ** attempt) * (0.5 + Math.random());
  return new Promise((r) => clock.setTimer(ms, r));
}

/** int8 columns (millisecond timestamps, counts) come back as JS numbers; the global pg types are untouched. */
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary' ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** A pool with the store's type parsers. */
export function createPool(url: string, max = 10, onError?: (e: Error) => void): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000, types: TYPES });
  // An idle client losing its connection must not crash the process; the next checkout reconnects.
  pool.on('error', (e) => onError?.(e));
  // Security invariant (availability): a pooled client always has an 'error' listener. pg-pool hands a new client out
  // from inside its socket's parse loop, so a FATAL in the chunk of its first ReadyForQuery (pg_terminate_backend during
  // a reconnect) is emitted before the borrower listens; unhandled, it would end the process. Alone, it reports the error.
  pool.on('connect', (client) => client.on('error', (e: Error) => void (client.listenerCount('error') === 1 && onError?.(e))));
  return pool;
}

/** One reconnect probe on its own short-lived connection (the pool's slots may all be taken by waiting requests). */
async function probe(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  c.on('error', () => undefined);
  try {
    await c.connect();
    await c.query('SELECT 1');
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** Connects to (and upgrades) a PostgreSQL database given a postgres:// or postgresql:// URL. */
export async function openPostgresStore(url: string, opts: OpenPostgresOptions): Promise<Store> {
  const clock = opts.clock ?? systemClock;
  const reconnect = new Reconnector({ clock, probe: () => probe(url), ...(opts.onReconnect ? { onChange: opts.onReconnect } : {}) });
  const pool = createPool(url, opts.maxConnections ?? 10, (e) => {
    if (isConnectionLoss(e)) reconnect.lost();
    opts.onPoolError?.(e);
  });
  try {
    const version = await migratePostgres(pool, opts.migrations, opts.clock);
    const lanes = opts.pipelineLanes ?? 2;
    const pipeline =
      lanes > 0
        ? new AutocommitPipeline({
            lanes,
            newClient: () => new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, types: TYPES, pipeline: true } as pg.ClientConfig),
            onError: (e) => {
              if (isConnectionLoss(e)) reconnect.lost();
              opts.onPoolError?.(e);
            },
          })
        : undefined;
    const store = new PostgresStore(pool, version, Math.max(1, opts.maxAttempts ?? 12), clock, reconnect, pipeline);
    if (opts.onPoolError) store.onClientError = opts.onPoolError;
    store.listener = new PgListener(url);
    return store;
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw e;
  }
}
