// Owns choosing the store from a database URL: `sqlite:PATH` opens a SQLite file, `postgres://…` connects to PostgreSQL.
import { resolve } from 'node:path';
import type { Clock } from '../../shared/clock.js';
import { openPostgresStore, type OpenPostgresOptions } from './postgres.js';
import { openSqliteStore } from './sqlite.js';
import type { Store } from './types.js';
import type { Schema } from './migrations.js';

export type DbLocation = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/**
 * Parses `sqlite:PATH` (PATH resolved against the working directory) or `postgres://` / `postgresql://` URLs.
 * Security invariant: the error never echoes the input, which may carry a database password.
 */
export function parseDbUrl(db: string): DbLocation {
  const sqlite = /^sqlite:(.+)$/.exec(db);
  if (sqlite) return { kind: 'sqlite', path: resolve(sqlite[1]!) };
  if (/^postgres(ql)?:\/\/[^\s]+$/.test(db)) {
    try {
      new URL(db);
    } catch {
      throw new Error('the database URL is not a valid postgres:// URL');
    }
    return { kind: 'postgres', url: db };
  }
  throw new Error('the database must be sqlite:PATH or postgres://USER@HOST:PORT/DB');
}

export interface OpenStoreOptions {
  /** The schema of the composition root's domains (assembleSchema). */
  schema: Schema;
  clock?: Clock;
  onPoolError?: (e: Error) => void;
  onReconnect?: OpenPostgresOptions['onReconnect'];
}

export async function openStore(db: string | DbLocation, opts: OpenStoreOptions): Promise<Store> {
  const loc = typeof db === 'string' ? parseDbUrl(db) : db;
  if (loc.kind === 'sqlite') return openSqliteStore(loc.path, { migrations: opts.schema.sqlite, ...(opts.clock ? { clock: opts.clock } : {}) });
  return openPostgresStore(loc.url, { migrations: opts.schema.postgres, ...(opts.clock ? { clock: opts.clock } : {}), ...(opts.onPoolError ? { onPoolError: opts.onPoolError } : {}), ...(opts.onReconnect ? { onReconnect: opts.onReconnect } : {}) });
}
