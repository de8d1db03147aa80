// Owns the `scheduled-message` domain schema step for SQLite and PostgreSQL (global version 15; never edit or reorder an applied step).
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

export const MIGRATIONS: readonly MigrationStep[] = [{ version: 15, name: 'scheduled messages', sqlite: tables('TEXT', 'TEXT', 'INTEGER'), postgres: tables('TEXT', 'TEXT COLLATE "C"', 'BIGINT') }];
