// Owns the schema steps of the server machinery itself (workspace meta, idempotency receipts, server processes, id nodes), beside the domains' own steps.
import type { MigrationStep } from './migrations.js';

export const MACHINERY_MIGRATIONS: readonly MigrationStep[] = [
  {
    version: 1,
    name: 'meta',
    sqlite: `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`,
    postgres: `
CREATE TABLE meta (key TEXT COLLATE "C" PRIMARY KEY, value TEXT NOT NULL);
`,
  },
  {
    version: 4,
    name: 'idempotency receipts',
    sqlite: `
CREATE TABLE idempotency_receipts (
  member_id TEXT NOT NULL REFERENCES members(id),
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending','complete')),
  status INTEGER,
  response TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (member_id, key)
);
CREATE INDEX idempotency_by_created ON idempotency_receipts (created_at);
`,
    postgres: `
CREATE TABLE idempotency_receipts (
  member_id TEXT COLLATE "C" NOT NULL REFERENCES members(id),
  key TEXT COLLATE "C" NOT NULL,
  request_hash TEXT COLLATE "C" NOT NULL,
  state TEXT COLLATE "C" NOT NULL CHECK (state IN ('pending','complete')),
  status INTEGER,
  response TEXT,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (member_id, key)
);
CREATE INDEX idempotency_by_created ON idempotency_receipts (created_at);
`,
  },
  {
    version: 18,
    name: 'server processes; idempotency claims',
    sqlite: `
CREATE TABLE server_processes (boot_id TEXT PRIMARY KEY, started_at INTEGER NOT NULL, heartbeat_at INTEGER NOT NULL);
ALTER TABLE idempotency_receipts ADD COLUMN claim TEXT;
`,
    postgres: `
CREATE TABLE server_processes (boot_id TEXT COLLATE "C" PRIMARY KEY, started_at BIGINT NOT NULL, heartbeat_at BIGINT NOT NULL);
ALTER TABLE idempotency_receipts ADD COLUMN claim TEXT COLLATE "C";
`,
  },
  {
    version: 22,
    name: 'id nodes',
    sqlite: `
CREATE TABLE id_nodes (node INTEGER PRIMARY KEY, boot_id TEXT NOT NULL, heartbeat_at INTEGER NOT NULL, high_ms INTEGER NOT NULL);
`,
    postgres: `
CREATE TABLE id_nodes (node INTEGER PRIMARY KEY, boot_id TEXT COLLATE "C" NOT NULL, heartbeat_at BIGINT NOT NULL, high_ms BIGINT NOT NULL);
`,
  },
];
