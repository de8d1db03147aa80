// Owns the SQLite schema history: an ordered, forward-only list of migrations; version N is the N-th entry.

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Never edit or reorder an applied step; add a new one at the end. Timestamps are integer milliseconds. */
export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'workspace, members, channels, dms, messages',
    sql: `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE members (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('human','agent')),
  role TEXT NOT NULL CHECK (role IN ('owner','member')),
  credential_hash BLOB NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);
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
  },
  {
    version: 2,
    name: 'tasks',
    sql: `
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
  },
  {
    version: 3,
    name: 'reviews',
    sql: `
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
  },
  {
    version: 4,
    name: 'idempotency receipts',
    sql: `
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
  },
  {
    version: 5,
    name: 'server processes; idempotency claims',
    sql: `
CREATE TABLE server_processes (
  boot_id TEXT PRIMARY KEY,
  started_at INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL
);
ALTER TABLE idempotency_receipts ADD COLUMN claim TEXT;
`,
  },
];
