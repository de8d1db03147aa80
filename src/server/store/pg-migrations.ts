// Owns the PostgreSQL schema history (the same ordered, forward-only steps as the SQLite list, in PostgreSQL types) and applying it.
import type pg from 'pg';
import { systemClock, type Clock } from '../../shared/clock.js';
import { AppError } from '../../shared/errors.js';
import type { Migration } from './migrations.js';

/** One fixed advisory-lock key for schema migrations, shared by every server process on the database. */
const MIGRATION_LOCK_KEY = 7_346_021_550;

/**
 * Version N here creates exactly what SQLITE_MIGRATIONS version N creates: same tables, columns, checks and the
 * indexes behind the keyset orderings. Millisecond timestamps are BIGINT (read back as JS numbers), blobs are BYTEA,
 * and every text column uses COLLATE "C" so ORDER BY and keyset comparisons are byte order, as on SQLite,
 * whatever locale the database was created with. Never edit or reorder an applied step; add a new one at the end.
 */
export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'workspace, members, channels, dms, messages',
    sql: `
CREATE TABLE meta (key TEXT COLLATE "C" PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE members (
  id TEXT COLLATE "C" PRIMARY KEY,
  name TEXT COLLATE "C" NOT NULL,
  kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('human','agent')),
  role TEXT COLLATE "C" NOT NULL CHECK (role IN ('owner','member')),
  credential_hash BYTEA NOT NULL UNIQUE,
  created_at BIGINT NOT NULL
);
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
CREATE TABLE messages (
  id TEXT COLLATE "C" PRIMARY KEY,
  target TEXT COLLATE "C" NOT NULL,
  author_id TEXT COLLATE "C" NOT NULL REFERENCES members(id),
  content TEXT NOT NULL,
  reply_to TEXT COLLATE "C" REFERENCES messages(id),
  created_at BIGINT NOT NULL
);
CREATE INDEX messages_by_target ON messages (target, created_at DESC, id DESC);
CREATE TABLE reactions (
  message_id TEXT COLLATE "C" NOT NULL REFERENCES messages(id),
  member_id TEXT COLLATE "C" NOT NULL REFERENCES members(id),
  emoji TEXT COLLATE "C" NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (message_id, member_id, emoji)
);
CREATE TABLE attachments (
  id TEXT COLLATE "C" PRIMARY KEY,
  message_id TEXT COLLATE "C" NOT NULL REFERENCES messages(id),
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  data BYTEA NOT NULL
);
CREATE INDEX attachments_by_message ON attachments (message_id, position);
`,
  },
  {
    version: 2,
    name: 'tasks',
    sql: `
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
    version: 3,
    name: 'reviews',
    sql: `
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
    version: 4,
    name: 'idempotency receipts',
    sql: `
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
    version: 5,
    name: 'server processes; idempotency claims',
    sql: `
CREATE TABLE server_processes (
  boot_id TEXT COLLATE "C" PRIMARY KEY,
  started_at BIGINT NOT NULL,
  heartbeat_at BIGINT NOT NULL
);
ALTER TABLE idempotency_receipts ADD COLUMN claim TEXT COLLATE "C";
`,
  },
];

/**
 * Applies every migration newer than the database's version in one transaction under a transaction-scoped advisory
 * lock, so several server processes starting at once apply each step exactly once. A database whose version is newer
 * than this code knows is refused: this binary must not write a schema it does not understand.
 */
export async function migratePostgres(pool: pg.Pool, migrations: readonly Migration[], clock: Clock = systemClock): Promise<number> {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration list is not contiguous at index ${i}`);
  });
  const known = migrations.length;
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
      const { rows } = await client.query<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations');
      const current = rows[0]?.v ?? 0;
      if (current > known) {
        throw new AppError('internal', `database schema version ${current} is newer than this server supports (${known}); upgrade AgentTeam`);
      }
      for (const m of migrations.slice(current)) {
        await client.query(m.sql);
        // applied_at is informational only; ordering never depends on it.
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, clock.now()]);
      }
      await client.query('COMMIT');
      return known;
    } catch (e) {
      await client.query('ROLLBACK').catch((err: Error) => void (broken = err));
      throw e;
    }
  } finally {
    client.release(broken);
  }
}
