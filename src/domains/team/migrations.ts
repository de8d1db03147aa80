// Owns the `team` domain schema steps for SQLite and PostgreSQL (global version numbers; never edit or reorder an applied step).
import type { MigrationStep } from '../../server/store/migrations.js';

export const MIGRATIONS: readonly MigrationStep[] = [
  {
    version: 8,
    name: 'teams',
    sqlite: `
CREATE TABLE teams (
  id TEXT PRIMARY KEY,
  handle TEXT NOT NULL,
  handle_fold TEXT NOT NULL UNIQUE,
  display_name TEXT NOT NULL,
  description TEXT NOT NULL,
  created_by TEXT NOT NULL REFERENCES members(id),
  revision INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  moved_seq INTEGER NOT NULL
);
CREATE INDEX teams_by_name ON teams (display_name, handle, id);
CREATE INDEX teams_by_moved ON teams (moved_seq);
CREATE TABLE team_members (
  team_id TEXT NOT NULL REFERENCES teams(id),
  member_id TEXT NOT NULL REFERENCES members(id),
  added_at INTEGER NOT NULL,
  PRIMARY KEY (team_id, member_id)
);
`,
    postgres: `
CREATE TABLE teams (
  id TEXT COLLATE "C" PRIMARY KEY,
  handle TEXT COLLATE "C" NOT NULL,
  handle_fold TEXT COLLATE "C" NOT NULL UNIQUE,
  display_name TEXT COLLATE "C" NOT NULL,
  description TEXT NOT NULL,
  created_by TEXT COLLATE "C" NOT NULL REFERENCES members(id),
  revision INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  moved_seq BIGINT NOT NULL
);
CREATE INDEX teams_by_name ON teams (display_name, handle, id);
CREATE INDEX teams_by_moved ON teams (moved_seq);
CREATE TABLE team_members (
  team_id TEXT COLLATE "C" NOT NULL REFERENCES teams(id),
  member_id TEXT COLLATE "C" NOT NULL REFERENCES members(id),
  added_at BIGINT NOT NULL,
  PRIMARY KEY (team_id, member_id)
);
`,
  },
];
