// Owns the `turn` domain schema steps: the message feed (a counter, pending messages, gap-free feed positions) for both engines.
import type { MigrationStep } from '../../server/store/migrations.js';

export const MIGRATIONS: readonly MigrationStep[] = [
  {
    version: 10,
    name: 'message feed (turns)',
    sqlite: `
CREATE TABLE feed_counter (id INTEGER PRIMARY KEY, seq INTEGER NOT NULL);
INSERT INTO feed_counter (id, seq) VALUES (1, 0);
CREATE TABLE feed_pending (message_id TEXT PRIMARY KEY REFERENCES messages(id), created_at INTEGER NOT NULL);
CREATE TABLE message_feed (seq INTEGER PRIMARY KEY, message_id TEXT NOT NULL UNIQUE REFERENCES messages(id));
`,
    postgres: `
CREATE TABLE feed_counter (id INTEGER PRIMARY KEY, seq BIGINT NOT NULL);
INSERT INTO feed_counter (id, seq) VALUES (1, 0);
CREATE TABLE feed_pending (message_id TEXT COLLATE "C" PRIMARY KEY REFERENCES messages(id), created_at BIGINT NOT NULL);
CREATE TABLE message_feed (seq BIGINT PRIMARY KEY, message_id TEXT COLLATE "C" NOT NULL UNIQUE REFERENCES messages(id));
`,
  },
];
