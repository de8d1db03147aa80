// Owns the storage seam of the AgentTeam Server: a narrow async SQL interface a SQLite (now) or PostgreSQL (later) store implements.

/** A bound SQL parameter. Integers are milliseconds or counters; blobs are Buffers. */
export type SqlValue = string | number | bigint | Buffer | null;

/**
 * The queries the domain modules may run. SQL is written portably with `?` placeholders (a PostgreSQL store
 * rewrites them to $n); no engine-specific functions. Every domain operation runs inside `tx`.
 */
export interface Sql {
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** Returns the number of rows changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /** Runs `fn` once the transaction this handle belongs to has committed (never after a rollback); outside one, at once. */
  afterCommit?(fn: () => void): void;
}

export interface Store extends Sql {
  /** The engine name: for diagnostics, and where an engine has its own path (id counters, the credential lookup). */
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs fn in one serializable transaction; it commits when fn resolves and rolls back when it throws. */
  tx<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * The store as seen from inside a transaction: `sql` is the handle a `tx` callback received; every call runs on it
   * and `tx` becomes a savepoint in it. Lets a caller pass its transaction to code written against `Store`.
   */
  within(sql: Sql): Store;
  /** PostgreSQL: calls `fn` when another process commits a message (LISTEN); absent on SQLite (one process writes). */
  onFeedCommit?(fn: () => void): void;
  /** PostgreSQL: the payload this store's message commits NOTIFY with, so its own listener skips them. */
  readonly feedOrigin?: string;
  /** The schema version the store is at after opening. */
  readonly schemaVersion: number;
  close(): Promise<void>;
}

/**
 * A step a domain (or the machinery) owns, in both engines' SQL. Versions are global: several owners may contribute to
 * one version (the first version creates members, channels and messages together); their SQL is concatenated in
 * registry order (machinery first). PostgreSQL text columns use COLLATE "C" so ORDER BY and keyset comparisons are
 * byte order as on SQLite; millisecond timestamps are BIGINT, blobs BYTEA. Never edit or reorder an applied step.
 */
export interface MigrationStep {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
}
