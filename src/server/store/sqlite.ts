// Owns the SQLite store: opening (WAL, foreign keys, busy_timeout), forward-only migrations, and serialized async transactions.
import { closeSync, constants, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import { systemClock, type Clock } from '../../shared/clock.js';
import { AppError } from '../../shared/errors.js';
import { duplicateKey, isSqliteUniqueViolation } from './errors.js';
import { planMigrations, type Migration } from './migrations.js';
import { TxView } from './tx-view.js';
import type { Sql, SqlValue, Store } from './types.js';

export interface OpenSqliteOptions {
  /** The schema history (assembleSchema(domains).sqlite from the composition root); tests pass a prefix to build an older file. */
  migrations: readonly Migration[];
  busyTimeoutMs?: number;
  clock?: Clock;
}

/**
 * Applies every migration newer than the file's version, all in one transaction (a failure leaves the file as it was).
 * A file whose version is newer than this code knows is refused: this binary must not write a schema it does not understand.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[], clock: Clock = systemClock): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  // The versions are read inside the write transaction so two processes opening one file cannot both migrate it.
  const apply = db.transaction((): number => {
    const applied = (db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map((r) => r.version);
    const { known, pending } = planMigrations(migrations, applied);
    for (const m of pending) {
      db.exec(m.sql);
      // applied_at is informational only; ordering never depends on it.
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, clock.now());
    }
    return known;
  });
  return apply.immediate();
}

/** Prepared statements by SQL text, per connection; least recently added evicted past the bound (domain SQL is a small fixed set). */
class StatementCache {
  private readonly map = new Map<string, Database.Statement>();
  constructor(
    private readonly db: Database.Database,
    private readonly max = 256,
  ) {}
  get(sql: string): Database.Statement {
    let s = this.map.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value!);
      this.map.set(sql, s);
    }
    return s;
  }
}

class SqliteSql implements Sql {
  /** Set when the transaction this handle belongs to has ended; a late continuation must not reuse it. */
  ended = false;
  /** Run by tx after COMMIT (dropped on rollback); the plain handle runs them at once. */
  readonly commits: Array<() => void> = [];
  afterCommit(fn: () => void): void {
    if (this === this.owner.plainHandle) fn();
    else this.commits.push(fn);
  }
  constructor(
    protected readonly stmts: StatementCache,
    readonly owner: SqliteStore,
  ) {}
  async get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return mapped(() => this.stmts.get(sql).get(...params) as T | undefined);
  }
  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return mapped(() => this.stmts.get(sql).all(...params) as T[]);
  }
  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return mapped(() => this.stmts.get(sql).run(...params).changes);
  }
}

/** A duplicate key is the same typed conflict the PostgreSQL store raises; every other error passes through. */
function mapped<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw isSqliteUniqueViolation(e) ? duplicateKey() : e;
  }
}

/**
 * One connection; transactions are serialized through a promise queue so an awaiting transaction never sees
 * another's uncommitted writes. Plain reads outside `tx` also wait their turn. A caller that wraps several domain
 * operations (e.g. a mutation and its idempotency receipt) into one atomic unit passes the transaction's `sql` on,
 * via `within(sql)` (a nested `tx` becomes a savepoint). There is no ambient joining: code outside the callback that
 * holds no `sql` queues behind the transaction.
 */
class SqliteStore implements Store {
  readonly dialect = 'sqlite' as const;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private savepoints = 0;
  private readonly stmts: StatementCache;
  private readonly plain: SqliteSql;
  get plainHandle(): SqliteSql {
    return this.plain;
  }

  constructor(
    private readonly db: Database.Database,
    readonly schemaVersion: number,
  ) {
    this.stmts = new StatementCache(db);
    this.plain = new SqliteSql(this.stmts, this);
  }

  /** Queued jobs not yet settled (a transaction counts until it has committed or rolled back). */
  private active = 0;
  private readonly settled = () => void this.active--;

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new AppError('upstream_unavailable', 'store is closed'));
    this.active++;
    const next = this.queue.then(fn, fn);
    this.queue = next.then(this.settled, this.settled);
    return next;
  }

  /**
   * A plain statement runs at once when nothing is queued (no transaction is open on the connection, and the statement
   * is synchronous, so nothing can start in between); otherwise it waits its turn. Security invariant: a read outside a
   * transaction never sees another transaction's uncommitted writes.
   */
  private exec<T>(f: (s: SqliteSql) => Promise<T>): Promise<T> {
    if (this.active === 0 && !this.closed) return f(this.plain);
    return this.enqueue(() => f(this.plain));
  }

  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.exec((s) => s.get<T>(sql, params));
  }
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.exec((s) => s.all<T>(sql, params));
  }
  run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.exec((s) => s.run(sql, params));
  }

  /** A nested transaction: a savepoint in the live transaction `a`. */
  async savepoint<T>(a: SqliteSql, fn: (sql: Sql) => Promise<T>): Promise<T> {
    const name = `sp_${++this.savepoints}`;
    this.db.exec(`SAVEPOINT ${name}`);
    try {
      const out = await fn(a);
      this.db.exec(`RELEASE ${name}`);
      return out;
    } catch (e) {
      this.db.exec(`ROLLBACK TO ${name}`);
      this.db.exec(`RELEASE ${name}`);
      throw e;
    }
  }

  async tx<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    return this.enqueue(async () => {
      const handle = new SqliteSql(this.stmts, this);
      // Prepared once like any statement (db.exec would compile the text on every transaction).
      this.stmts.get('BEGIN IMMEDIATE').run();
      try {
        const out = await fn(handle);
        this.stmts.get('COMMIT').run();
        for (const f of handle.commits) f();
        return out;
      } catch (e) {
        if (this.db.inTransaction) this.stmts.get('ROLLBACK').run();
        throw e;
      } finally {
        handle.ended = true;
      }
    });
  }

  within(sql: Sql): Store {
    // Only a live transaction handle of this store may be joined; anything else would run outside the queue.
    if (!(sql instanceof SqliteSql) || sql.owner !== this || sql === this.plain || sql.ended) throw new Error('within() needs a live transaction handle of this store');
    return new TxView(this, sql, (h, fn) => this.savepoint(h as SqliteSql, fn));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.enqueue(async () => undefined);
    this.closed = true;
    this.db.close();
  }
}

/**
 * Security invariant: a new database file is created 0600 (never through a link) before SQLite opens it, and SQLite gives
 * its -wal and -shm files the database file's mode, so none of them is ever group/world readable.
 */
function createPrivate(path: string): void {
  if (path === ':memory:' || path === '' || path.startsWith('file:')) return;
  try {
    closeSync(openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}

/** Opens (creating if needed) and upgrades a SQLite database file. */
export function openSqliteStore(path: string, opts: OpenSqliteOptions): Store {
  createPrivate(path);
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? 5000))}`);
    db.pragma('synchronous = NORMAL');
    const version = migrate(db, opts.migrations, opts.clock);
    return new SqliteStore(db, version);
  } catch (e) {
    db.close();
    throw e;
  }
}
