// Owns the store as seen from inside one transaction (Store.within): calls run on the transaction's handle, tx is a savepoint.
import type { Sql, SqlValue, Store } from './types.js';

/** A transaction handle as both engines keep it: the Sql calls plus whether its transaction has ended. */
export interface TxHandle extends Sql {
  readonly ended: boolean;
}

export class TxView implements Store {
  readonly dialect: Store['dialect'];
  readonly schemaVersion: number;
  readonly feedOrigin: string | undefined;

  constructor(
    private readonly store: Store,
    private readonly handle: TxHandle,
    private readonly savepoint: <T>(handle: TxHandle, fn: (sql: Sql) => Promise<T>) => Promise<T>,
  ) {
    this.dialect = store.dialect;
    this.schemaVersion = store.schemaVersion;
    this.feedOrigin = store.feedOrigin;
  }

  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.handle.get<T>(sql, params);
  }
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.handle.all<T>(sql, params);
  }
  run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.handle.run(sql, params);
  }
  async tx<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    if (this.handle.ended) throw new Error('the transaction has ended');
    return this.savepoint(this.handle, fn);
  }
  within(sql: Sql): Store {
    return this.store.within(sql);
  }
  close(): Promise<void> {
    return Promise.reject(new Error('close the store, not a transaction view'));
  }
}
