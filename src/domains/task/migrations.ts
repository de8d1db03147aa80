// Owns the `task` domain schema steps for SQLite and PostgreSQL (global version numbers; never edit or reorder an applied step).
import type { MigrationStep } from '../../server/store/migrations.js';

export const MIGRATIONS: readonly MigrationStep[] = [
  {
    version: 2,
    name: 'tasks',
    sqlite: `
CREATE TABLE tasks (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open','in_progress','blocked','done','canceled')),
  assignee_id TEXT REFERENCES members(id),
  created_by TEXT NOT NULL REFERENCES members(id),
  blocked_reason TEXT,
  revision INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX tasks_by_created ON tasks (created_at DESC, id DESC);
CREATE INDEX tasks_by_status ON tasks (status, created_at DESC, id DESC);
CREATE INDEX tasks_by_assignee ON tasks (assignee_id, created_at DESC, id DESC);
`,
    postgres: `
CREATE TABLE tasks (
  id TEXT COLLATE "C" PRIMARY KEY,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  status TEXT COLLATE "C" NOT NULL CHECK (status IN ('open','in_progress','blocked','done','canceled')),
  assignee_id TEXT COLLATE "C" REFERENCES members(id),
  created_by TEXT COLLATE "C" NOT NULL REFERENCES members(id),
  blocked_reason TEXT,
  revision INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX tasks_by_created ON tasks (created_at DESC, id DESC);
CREATE INDEX tasks_by_status ON tasks (status, created_at DESC, id DESC);
CREATE INDEX tasks_by_assignee ON tasks (assignee_id, created_at DESC, id DESC);
`,
  },
  {
    version: 7,
    name: 'tasks: project_id',
    sqlite: `
ALTER TABLE tasks ADD COLUMN project_id TEXT REFERENCES projects(id);
CREATE INDEX tasks_by_project ON tasks (project_id, created_at DESC, id DESC);
`,
    postgres: `
ALTER TABLE tasks ADD COLUMN project_id TEXT COLLATE "C" REFERENCES projects(id);
CREATE INDEX tasks_by_project ON tasks (project_id, created_at DESC, id DESC);
`,
  },
];
