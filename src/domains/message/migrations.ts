// Owns the `message` domain schema steps for SQLite and PostgreSQL (global version numbers; never edit or reorder an applied step).
import type { MigrationStep } from '../../server/store/migrations.js';

/** Who started each thread (its first message), for THREADS_STARTED_MAX; existing threads are backfilled from their first message. */
const GROWTH = (id: string, big: string) => `
CREATE TABLE thread_starts (
  target ${id} PRIMARY KEY,
  started_by ${id} NOT NULL REFERENCES members(id),
  created_at ${big} NOT NULL
);
CREATE INDEX thread_starts_by_member ON thread_starts (started_by, created_at);
INSERT INTO thread_starts (target, started_by, created_at)
  SELECT m.target, m.author_id, m.created_at FROM messages m WHERE m.target LIKE 'thread:%'
    AND NOT EXISTS (SELECT 1 FROM messages e WHERE e.target = m.target AND (e.created_at < m.created_at OR (e.created_at = m.created_at AND e.id < m.id)));
CREATE INDEX tasks_by_creator_status ON tasks (created_by, status);
`;

export const MIGRATIONS: readonly MigrationStep[] = [
  {
    version: 1,
    name: 'messages',
    sqlite: `
CREATE TABLE messages (
  id TEXT PRIMARY KEY,
  target TEXT NOT NULL,
  author_id TEXT NOT NULL REFERENCES members(id),
  content TEXT NOT NULL,
  reply_to TEXT REFERENCES messages(id),
  created_at INTEGER NOT NULL
);
CREATE INDEX messages_by_target ON messages (target, created_at DESC, id DESC);
CREATE TABLE reactions (
  message_id TEXT NOT NULL REFERENCES messages(id),
  member_id TEXT NOT NULL REFERENCES members(id),
  emoji TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (message_id, member_id, emoji)
);
CREATE TABLE attachments (
  id TEXT PRIMARY KEY,
  message_id TEXT NOT NULL REFERENCES messages(id),
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  data BLOB NOT NULL
);
CREATE INDEX attachments_by_message ON attachments (message_id, position);
`,
    postgres: `
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
    version: 9,
    name: 'attachment uploads and chunks',
    sqlite: `
CREATE TABLE attachment_uploads (
  id TEXT PRIMARY KEY,
  member_id TEXT NOT NULL REFERENCES members(id),
  name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  complete INTEGER NOT NULL CHECK (complete IN (0, 1)),
  created_at INTEGER NOT NULL
);
CREATE INDEX attachment_uploads_by_member ON attachment_uploads (member_id);
CREATE INDEX attachment_uploads_by_created ON attachment_uploads (created_at);
CREATE TABLE attachment_chunks (
  attachment_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (attachment_id, seq)
);
INSERT INTO attachment_chunks (attachment_id, seq, data) SELECT id, 0, data FROM attachments WHERE length(data) > 0;
UPDATE attachments SET data = X'';
`,
    postgres: `
CREATE TABLE attachment_uploads (
  id TEXT COLLATE "C" PRIMARY KEY,
  member_id TEXT COLLATE "C" NOT NULL REFERENCES members(id),
  name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  complete INTEGER NOT NULL CHECK (complete IN (0, 1)),
  created_at BIGINT NOT NULL
);
CREATE INDEX attachment_uploads_by_member ON attachment_uploads (member_id);
CREATE INDEX attachment_uploads_by_created ON attachment_uploads (created_at);
CREATE TABLE attachment_chunks (
  attachment_id TEXT COLLATE "C" NOT NULL,
  seq INTEGER NOT NULL,
  data BYTEA NOT NULL,
  PRIMARY KEY (attachment_id, seq)
);
INSERT INTO attachment_chunks (attachment_id, seq, data) SELECT id, 0, data FROM attachments WHERE length(data) > 0;
UPDATE attachments SET data = ''::bytea;
`,
  },
  {
    version: 38,
    name: 'per-member growth bounds: thread starts (backfilled); tasks by creator and status',
    // Tasks' index rides here: each schema version has one owner and these bounds were given one version together.
    sqlite: GROWTH('TEXT', 'INTEGER'),
    postgres: GROWTH('TEXT COLLATE "C"', 'BIGINT'),
  },
  {
    // A system notice (a failure, loop or backlog notice the daemon posts as an agent) is stored as such: it starts no turn.
    version: 42,
    name: 'message kind (notice)',
    sqlite: `ALTER TABLE messages ADD COLUMN kind TEXT NOT NULL DEFAULT 'message' CHECK (kind IN ('message', 'notice'));`,
    postgres: `ALTER TABLE messages ADD COLUMN kind TEXT COLLATE "C" NOT NULL DEFAULT 'message' CHECK (kind IN ('message', 'notice'));`,
  },
];
