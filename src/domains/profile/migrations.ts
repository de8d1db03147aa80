// Owns the `profile` domain schema steps for SQLite and PostgreSQL (global version numbers; never edit or reorder an applied step).
import type { MigrationStep } from '../../server/store/migrations.js';

export const MIGRATIONS: readonly MigrationStep[] = [
  {
    version: 12,
    name: 'profiles',
    sqlite: `
CREATE TABLE profiles (
  member_id TEXT PRIMARY KEY REFERENCES members(id),
  display_name TEXT NOT NULL,
  bio TEXT NOT NULL,
  status TEXT NOT NULL,
  revision INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
`,
    postgres: `
CREATE TABLE profiles (
  member_id TEXT COLLATE "C" PRIMARY KEY REFERENCES members(id),
  display_name TEXT NOT NULL,
  bio TEXT NOT NULL,
  status TEXT NOT NULL,
  revision INTEGER NOT NULL,
  updated_at BIGINT NOT NULL
);
`,
  },
];
