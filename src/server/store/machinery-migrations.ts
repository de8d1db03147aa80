// Owns the schema steps of the server machinery itself (workspace meta, idempotency receipts, server processes, id nodes, id counters), beside the domains' own steps.
import type { MigrationStep } from './types.js';

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
  {
    // Numbered ids (src/server/id-counters.ts). id_nodes (22) is no longer read; it stays so that a server of the
    // version before, still running when this one migrates, keeps working (its ids keep their own, disjoint form).
    version: 32,
    name: 'id counters',
    sqlite: `
CREATE TABLE id_counters (kind TEXT PRIMARY KEY, n INTEGER NOT NULL CHECK (n BETWEEN 0 AND 999999999));
INSERT INTO id_counters (kind, n) VALUES ('msg', 0), ('tsk', 0), ('rev', 0), ('prj', 0), ('team', 0), ('sch', 0), ('run', 0), ('wfr', 0), ('wfs', 0), ('wfp', 0), ('wft', 0), ('kbs', 0), ('kbd', 0), ('apr', 0);
`,
    postgres: `
CREATE SEQUENCE id_seq_msg MINVALUE 1 MAXVALUE 999999999 NO CYCLE;
CREATE SEQUENCE id_seq_tsk MINVALUE 1 MAXVALUE 999999999 NO CYCLE;
CREATE SEQUENCE id_seq_rev MINVALUE 1 MAXVALUE 999999999 NO CYCLE;
CREATE SEQUENCE id_seq_prj MINVALUE 1 MAXVALUE 999999999 NO CYCLE;
CREATE SEQUENCE id_seq_team MINVALUE 1 MAXVALUE 999999999 NO CYCLE;
CREATE SEQUENCE id_seq_sch MINVALUE 1 MAXVALUE 999999999 NO CYCLE;
CREATE SEQUENCE id_seq_run MINVALUE 1 MAXVALUE 999999999 NO CYCLE;
CREATE SEQUENCE id_seq_wfr MINVALUE 1 MAXVALUE 999999999 NO CYCLE;
CREATE SEQUENCE id_seq_wfs MINVALUE 1 MAXVALUE 999999999 NO CYCLE;
CREATE SEQUENCE id_seq_wfp MINVALUE 1 MAXVALUE 999999999 NO CYCLE;
CREATE SEQUENCE id_seq_wft MINVALUE 1 MAXVALUE 999999999 NO CYCLE;
CREATE SEQUENCE id_seq_kbs MINVALUE 1 MAXVALUE 999999999 NO CYCLE;
CREATE SEQUENCE id_seq_kbd MINVALUE 1 MAXVALUE 999999999 NO CYCLE;
CREATE SEQUENCE id_seq_apr MINVALUE 1 MAXVALUE 999999999 NO CYCLE;
`,
  },
  {
    // Members (Humans mem, agents agt) and DMs are numbered too (they were random 15-digit ids; those stay valid).
    version: 33,
    name: 'member and dm id counters',
    sqlite: `
INSERT INTO id_counters (kind, n) VALUES ('mem', 0), ('agt', 0), ('dm', 0);
`,
    postgres: `
CREATE SEQUENCE id_seq_mem MINVALUE 1 MAXVALUE 999999999 NO CYCLE;
CREATE SEQUENCE id_seq_agt MINVALUE 1 MAXVALUE 999999999 NO CYCLE;
CREATE SEQUENCE id_seq_dm MINVALUE 1 MAXVALUE 999999999 NO CYCLE;
`,
  },
];
