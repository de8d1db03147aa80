// Owns the `channel` domain schema steps for SQLite and PostgreSQL (global version numbers; never edit or reorder an applied step).
import type { MigrationStep } from '../../server/store/migrations.js';

export const MIGRATIONS: readonly MigrationStep[] = [
  {
    version: 1,
    name: 'channels, dms',
    sqlite: `
CREATE TABLE channels (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE channel_members (
  channel_id TEXT NOT NULL REFERENCES channels(id),
  member_id TEXT NOT NULL REFERENCES members(id),
  PRIMARY KEY (channel_id, member_id)
);
CREATE TABLE dms (id TEXT PRIMARY KEY, member_key TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL);
CREATE TABLE dm_members (
  dm_id TEXT NOT NULL REFERENCES dms(id),
  member_id TEXT NOT NULL REFERENCES members(id),
  PRIMARY KEY (dm_id, member_id)
);
`,
    postgres: `
CREATE TABLE channels (id TEXT COLLATE "C" PRIMARY KEY, name TEXT COLLATE "C" NOT NULL, created_at BIGINT NOT NULL);
CREATE TABLE channel_members (
  channel_id TEXT COLLATE "C" NOT NULL REFERENCES channels(id),
  member_id TEXT COLLATE "C" NOT NULL REFERENCES members(id),
  PRIMARY KEY (channel_id, member_id)
);
CREATE TABLE dms (id TEXT COLLATE "C" PRIMARY KEY, member_key TEXT COLLATE "C" NOT NULL UNIQUE, created_at BIGINT NOT NULL);
CREATE TABLE dm_members (
  dm_id TEXT COLLATE "C" NOT NULL REFERENCES dms(id),
  member_id TEXT COLLATE "C" NOT NULL REFERENCES members(id),
  PRIMARY KEY (dm_id, member_id)
);
`,
  },
  {
    version: 27,
    name: 'dms remember who opened them (the per-member DM bound)',
    sqlite: `
ALTER TABLE dms ADD COLUMN created_by TEXT;
CREATE INDEX dms_created_by ON dms (created_by);
`,
    postgres: `
ALTER TABLE dms ADD COLUMN created_by TEXT COLLATE "C";
CREATE INDEX dms_created_by ON dms (created_by);
`,
  },
];
