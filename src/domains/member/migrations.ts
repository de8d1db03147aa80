// Owns the `member` domain schema steps for SQLite and PostgreSQL (global version numbers; never edit or reorder an applied step).
import type { MigrationStep } from '../../server/store/migrations.js';

export const MIGRATIONS: readonly MigrationStep[] = [
  {
    version: 1,
    name: 'members',
    sqlite: `
CREATE TABLE members (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('human','agent')),
  role TEXT NOT NULL CHECK (role IN ('owner','member')),
  credential_hash BLOB NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);
`,
    postgres: `
CREATE TABLE members (
  id TEXT COLLATE "C" PRIMARY KEY,
  name TEXT COLLATE "C" NOT NULL,
  kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('human','agent')),
  role TEXT COLLATE "C" NOT NULL CHECK (role IN ('owner','member')),
  credential_hash BYTEA NOT NULL UNIQUE,
  created_at BIGINT NOT NULL
);
`,
  },
  {
    version: 19,
    name: 'member admins, removal, agent creators; invites',
    sqlite: `
ALTER TABLE members ADD COLUMN admin INTEGER NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN removed_at INTEGER;
ALTER TABLE members ADD COLUMN created_by TEXT;
CREATE TABLE invites (
  id TEXT PRIMARY KEY,
  code_hash BLOB NOT NULL UNIQUE,
  name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('member','admin')),
  created_by TEXT NOT NULL REFERENCES members(id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_by TEXT REFERENCES members(id),
  used_at INTEGER
);
`,
    postgres: `
ALTER TABLE members ADD COLUMN admin INTEGER NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN removed_at BIGINT;
ALTER TABLE members ADD COLUMN created_by TEXT COLLATE "C";
CREATE TABLE invites (
  id TEXT COLLATE "C" PRIMARY KEY,
  code_hash BYTEA NOT NULL UNIQUE,
  name TEXT COLLATE "C" NOT NULL,
  role TEXT COLLATE "C" NOT NULL CHECK (role IN ('member','admin')),
  created_by TEXT COLLATE "C" NOT NULL REFERENCES members(id),
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_by TEXT COLLATE "C" REFERENCES members(id),
  used_at BIGINT
);
`,
  },
  {
    version: 28,
    name: 'member name keys (a name is unique per workspace ignoring case, width and invisibles)',
    // Rows from before keep name_key NULL (SQL cannot compute NFKC on SQLite): claimName compares them in code, so they
    // block their names like keyed rows; names they share with each other stay as they are until a rename keys them.
    sqlite: `
ALTER TABLE members ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX members_name_unique ON members (name_key) WHERE removed_at IS NULL;
CREATE INDEX members_unkeyed ON members (id) WHERE name_key IS NULL AND removed_at IS NULL;
`,
    postgres: `
ALTER TABLE members ADD COLUMN name_key TEXT COLLATE "C";
CREATE UNIQUE INDEX members_name_unique ON members (name_key) WHERE removed_at IS NULL;
CREATE INDEX members_unkeyed ON members (id) WHERE name_key IS NULL AND removed_at IS NULL;
`,
  },
  {
    version: 34,
    name: 'member name skeletons (unique by confusable skeleton; removed members keep theirs)',
    // Rows from before keep name_skeleton NULL (SQL cannot compute a skeleton): claimName fills them before it compares.
    sqlite: `
ALTER TABLE members ADD COLUMN name_skeleton TEXT;
CREATE INDEX members_skeleton ON members (name_skeleton);
CREATE INDEX members_unskeletoned ON members (id) WHERE name_skeleton IS NULL;
`,
    postgres: `
ALTER TABLE members ADD COLUMN name_skeleton TEXT COLLATE "C";
CREATE INDEX members_skeleton ON members (name_skeleton);
CREATE INDEX members_unskeletoned ON members (id) WHERE name_skeleton IS NULL;
`,
  },
  {
    version: 35,
    name: 'invite revocation and listing',
    sqlite: `
ALTER TABLE invites ADD COLUMN revoked_at INTEGER;
CREATE INDEX invites_open_by_creator ON invites (created_by) WHERE used_by IS NULL AND revoked_at IS NULL;
CREATE INDEX invites_listing ON invites (created_at, id);
`,
    postgres: `
ALTER TABLE invites ADD COLUMN revoked_at BIGINT;
CREATE INDEX invites_open_by_creator ON invites (created_by) WHERE used_by IS NULL AND revoked_at IS NULL;
CREATE INDEX invites_listing ON invites (created_at, id);
`,
  },
];
