// Owns the `scheduled-message` domain schema step for SQLite and PostgreSQL (global versions 15 and 37; never edit or reorder an applied step).
import type { MigrationStep } from '../../server/store/migrations.js';

const tables = (text: string, id: string, big: string) => `
CREATE TABLE scheduled_messages (
  id ${id} PRIMARY KEY,
  target ${id} NOT NULL,
  content ${text} NOT NULL,
  at ${big},
  cron ${id},
  time_zone ${id},
  missed_policy ${id} NOT NULL CHECK (missed_policy IN ('skip','fireOnce')),
  enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  next_run_at ${big},
  created_by ${id} NOT NULL REFERENCES members(id),
  revision INTEGER NOT NULL,
  created_at ${big} NOT NULL,
  updated_at ${big} NOT NULL,
  CHECK ((at IS NULL) <> (cron IS NULL))
);
CREATE INDEX scheduled_messages_due ON scheduled_messages (enabled, next_run_at, id);
CREATE INDEX scheduled_messages_by_creator ON scheduled_messages (created_by, created_at, id);
CREATE INDEX scheduled_messages_by_created ON scheduled_messages (created_at, id);
CREATE TABLE schedule_runs (
  id ${id} PRIMARY KEY,
  schedule_id ${id} NOT NULL REFERENCES scheduled_messages(id),
  scheduled_for ${big} NOT NULL,
  status ${id} NOT NULL CHECK (status IN ('sent','missed','failed')),
  occurrences INTEGER NOT NULL,
  message_id ${id},
  error ${text},
  attempted_at ${big},
  created_at ${big} NOT NULL,
  UNIQUE (schedule_id, scheduled_for)
);
CREATE INDEX schedule_runs_effective ON schedule_runs (schedule_id, (COALESCE(attempted_at, created_at)), id);
`;

/** Every run status, and the ones that stand for a window (unique per window; disabled/deleted entries are a log). */
const STATUSES = "'sent','missed','failed','skipped','disabled','deleted'";
const WINDOWS = "'sent','missed','failed','skipped'";
// A schedule whose creator is already removed stops now (removal disables them from here on, in its transaction).
const STOP_REMOVED = 'UPDATE scheduled_messages SET enabled = 0, next_run_at = NULL WHERE enabled = 1 AND created_by IN (SELECT id FROM members WHERE removed_at IS NOT NULL);';

/** SQLite cannot change a CHECK in place: the runs table is rebuilt (nothing references it). */
const RUNS_V37_SQLITE = `
CREATE TABLE schedule_runs_v37 (
  id TEXT PRIMARY KEY,
  schedule_id TEXT NOT NULL REFERENCES scheduled_messages(id),
  scheduled_for INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN (${STATUSES})),
  occurrences INTEGER NOT NULL,
  message_id TEXT,
  error TEXT,
  attempted_at INTEGER,
  created_at INTEGER NOT NULL,
  actor_id TEXT REFERENCES members(id)
);
INSERT INTO schedule_runs_v37 (id, schedule_id, scheduled_for, status, occurrences, message_id, error, attempted_at, created_at)
  SELECT id, schedule_id, scheduled_for, status, occurrences, message_id, error, attempted_at, created_at FROM schedule_runs;
DROP TABLE schedule_runs;
ALTER TABLE schedule_runs_v37 RENAME TO schedule_runs;
CREATE UNIQUE INDEX schedule_runs_window ON schedule_runs (schedule_id, scheduled_for) WHERE status IN (${WINDOWS});
CREATE INDEX schedule_runs_effective ON schedule_runs (schedule_id, (COALESCE(attempted_at, created_at)), id);
ALTER TABLE scheduled_messages ADD COLUMN deleted_by TEXT REFERENCES members(id);
ALTER TABLE scheduled_messages ADD COLUMN deleted_at INTEGER;
${STOP_REMOVED}
`;
const RUNS_V37_POSTGRES = `
ALTER TABLE schedule_runs DROP CONSTRAINT schedule_runs_status_check;
ALTER TABLE schedule_runs ADD CONSTRAINT schedule_runs_status_check CHECK (status IN (${STATUSES}));
ALTER TABLE schedule_runs DROP CONSTRAINT schedule_runs_schedule_id_scheduled_for_key;
CREATE UNIQUE INDEX schedule_runs_window ON schedule_runs (schedule_id, scheduled_for) WHERE status IN (${WINDOWS});
ALTER TABLE schedule_runs ADD COLUMN actor_id TEXT COLLATE "C" REFERENCES members(id);
ALTER TABLE scheduled_messages ADD COLUMN deleted_by TEXT COLLATE "C" REFERENCES members(id);
ALTER TABLE scheduled_messages ADD COLUMN deleted_at BIGINT;
${STOP_REMOVED}
`;

export const MIGRATIONS: readonly MigrationStep[] = [
  { version: 15, name: 'scheduled messages', sqlite: tables('TEXT', 'TEXT', 'INTEGER'), postgres: tables('TEXT', 'TEXT COLLATE "C"', 'BIGINT') },
  // Runs also record skipped windows and who (not the creator) disabled or deleted a schedule; deleted_* mark the latter.
  { version: 37, name: 'schedule runs: skipped, disabled and deleted entries naming who; schedules deleted by another', sqlite: RUNS_V37_SQLITE, postgres: RUNS_V37_POSTGRES },
];
