// Owns the `review` domain schema steps for SQLite and PostgreSQL (global version numbers; never edit or reorder an applied step).
import type { MigrationStep } from '../../server/store/migrations.js';

export const MIGRATIONS: readonly MigrationStep[] = [
  {
    version: 3,
    name: 'reviews',
    sqlite: `
CREATE TABLE reviews (
  id TEXT PRIMARY KEY,
  target TEXT NOT NULL,
  author_id TEXT NOT NULL REFERENCES members(id),
  verdict TEXT NOT NULL CHECK (verdict IN ('approve','request_changes','comment')),
  body TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open','resolved')),
  revision INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX reviews_by_target ON reviews (target, updated_at DESC, id DESC);
`,
    postgres: `
CREATE TABLE reviews (
  id TEXT COLLATE "C" PRIMARY KEY,
  target TEXT COLLATE "C" NOT NULL,
  author_id TEXT COLLATE "C" NOT NULL REFERENCES members(id),
  verdict TEXT COLLATE "C" NOT NULL CHECK (verdict IN ('approve','request_changes','comment')),
  body TEXT NOT NULL,
  status TEXT COLLATE "C" NOT NULL CHECK (status IN ('open','resolved')),
  revision INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX reviews_by_target ON reviews (target, updated_at DESC, id DESC);
`,
  },
  {
    version: 5,
    name: 'reviews: moved_seq for stale cursors',
    sqlite: `
ALTER TABLE reviews ADD COLUMN moved_seq INTEGER NOT NULL DEFAULT 0;
CREATE INDEX reviews_by_moved ON reviews (moved_seq);
`,
    postgres: `
ALTER TABLE reviews ADD COLUMN moved_seq BIGINT NOT NULL DEFAULT 0;
CREATE INDEX reviews_by_moved ON reviews (moved_seq);
`,
  },
];
