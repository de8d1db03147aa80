// Owns the `project` domain schema steps for SQLite and PostgreSQL (global version numbers; never edit or reorder an applied step).
import type { MigrationStep } from '../../server/store/migrations.js';

export const MIGRATIONS: readonly MigrationStep[] = [
  {
    version: 6,
    name: 'projects',
    sqlite: `
CREATE TABLE projects (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  name_fold TEXT NOT NULL,
  description TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active','archived')),
  created_by TEXT NOT NULL REFERENCES members(id),
  revision INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  moved_seq INTEGER NOT NULL
);
CREATE INDEX projects_by_updated ON projects (updated_at DESC, id ASC);
CREATE INDEX projects_by_status ON projects (status, updated_at DESC, id ASC);
CREATE INDEX projects_by_moved ON projects (moved_seq);
`,
    postgres: `
CREATE TABLE projects (
  id TEXT COLLATE "C" PRIMARY KEY,
  name TEXT COLLATE "C" NOT NULL,
  name_fold TEXT COLLATE "C" NOT NULL,
  description TEXT NOT NULL,
  status TEXT COLLATE "C" NOT NULL CHECK (status IN ('active','archived')),
  created_by TEXT COLLATE "C" NOT NULL REFERENCES members(id),
  revision INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  moved_seq BIGINT NOT NULL
);
CREATE INDEX projects_by_updated ON projects (updated_at DESC, id ASC);
CREATE INDEX projects_by_status ON projects (status, updated_at DESC, id ASC);
CREATE INDEX projects_by_moved ON projects (moved_seq);
`,
  },
];
