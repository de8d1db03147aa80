// Owns the `workflow` domain schema steps for SQLite and PostgreSQL (global versions 20, 21, 30, 31 and 39; never edit or reorder an applied step).
import type { MigrationStep } from '../../server/store/migrations.js';

const plans = (text: string, id: string, big: string) => `
CREATE TABLE workflow_plans (
  id ${id} PRIMARY KEY,
  name ${text} NOT NULL,
  status ${id} NOT NULL CHECK (status IN ('active','archived')),
  latest_version INTEGER NOT NULL,
  published_version INTEGER,
  created_by ${id} NOT NULL REFERENCES members(id),
  revision INTEGER NOT NULL,
  created_at ${big} NOT NULL,
  updated_at ${big} NOT NULL
);
CREATE INDEX workflow_plans_by_created ON workflow_plans (created_at, id);
CREATE TABLE workflow_plan_versions (
  plan_id ${id} NOT NULL REFERENCES workflow_plans(id),
  version INTEGER NOT NULL,
  state ${id} NOT NULL CHECK (state IN ('draft','published')),
  steps ${text} NOT NULL,
  created_at ${big} NOT NULL,
  published_at ${big},
  PRIMARY KEY (plan_id, version)
);
CREATE TABLE workflow_triggers (
  id ${id} PRIMARY KEY,
  plan_id ${id} NOT NULL REFERENCES workflow_plans(id),
  name ${text} NOT NULL,
  kind ${id} NOT NULL CHECK (kind IN ('manual')),
  target ${id} NOT NULL,
  status ${id} NOT NULL CHECK (status IN ('enabled','disabled','archived')),
  created_by ${id} NOT NULL REFERENCES members(id),
  revision INTEGER NOT NULL,
  created_at ${big} NOT NULL,
  updated_at ${big} NOT NULL
);
CREATE INDEX workflow_triggers_by_created ON workflow_triggers (created_at, id);
CREATE INDEX workflow_triggers_by_plan ON workflow_triggers (plan_id, created_at, id);
`;

const runs = (text: string, id: string, big: string) => `
CREATE TABLE workflow_runs (
  id ${id} PRIMARY KEY,
  plan_id ${id} NOT NULL REFERENCES workflow_plans(id),
  version INTEGER NOT NULL,
  trigger_id ${id} REFERENCES workflow_triggers(id),
  target ${id} NOT NULL,
  status ${id} NOT NULL CHECK (status IN ('running','paused','parked','completed','failed','cancelled')),
  current_step INTEGER,
  step_count INTEGER NOT NULL,
  started_by ${id} NOT NULL REFERENCES members(id),
  log_count INTEGER NOT NULL,
  revision INTEGER NOT NULL,
  created_at ${big} NOT NULL,
  updated_at ${big} NOT NULL
);
CREATE INDEX workflow_runs_by_created ON workflow_runs (created_at, id);
CREATE INDEX workflow_runs_by_plan ON workflow_runs (plan_id, created_at, id);
CREATE TABLE workflow_steps (
  id ${id} PRIMARY KEY,
  run_id ${id} NOT NULL REFERENCES workflow_runs(id),
  idx INTEGER NOT NULL,
  title ${text} NOT NULL,
  instructions ${text} NOT NULL,
  assignee ${id} NOT NULL,
  status ${id} NOT NULL CHECK (status IN ('pending','active','paused','parked','completed','failed','cancelled')),
  approval_id ${id},
  message_id ${id},
  note ${text},
  revision INTEGER NOT NULL,
  created_at ${big} NOT NULL,
  updated_at ${big} NOT NULL,
  UNIQUE (run_id, idx)
);
CREATE INDEX workflow_steps_waiting ON workflow_steps (status, approval_id);
CREATE TABLE workflow_logs (
  run_id ${id} NOT NULL REFERENCES workflow_runs(id),
  seq INTEGER NOT NULL,
  step_id ${id},
  event ${id} NOT NULL,
  actor_id ${id} NOT NULL,
  note ${text},
  created_at ${big} NOT NULL,
  PRIMARY KEY (run_id, seq)
);
`;

const BY_MESSAGE = 'CREATE INDEX workflow_steps_by_message ON workflow_steps (message_id);';
const BY_STARTER = 'CREATE INDEX workflow_runs_by_starter ON workflow_runs (started_by, status);';
const BY_CREATOR = `
CREATE INDEX workflow_plans_by_creator ON workflow_plans (created_by, status);
CREATE INDEX workflow_triggers_by_creator ON workflow_triggers (created_by, status);
`;

export const MIGRATIONS: readonly MigrationStep[] = [
  { version: 20, name: 'workflow plans and triggers', sqlite: plans('TEXT', 'TEXT', 'INTEGER'), postgres: plans('TEXT', 'TEXT COLLATE "C"', 'BIGINT') },
  { version: 21, name: 'workflow runs, steps and logs', sqlite: runs('TEXT', 'TEXT', 'INTEGER'), postgres: runs('TEXT', 'TEXT COLLATE "C"', 'BIGINT') },
  // The turn feed finds a step by its delivered message (a step delivery is its assignee's turn, even as its own message).
  { version: 30, name: 'workflow steps by delivered message', sqlite: BY_MESSAGE, postgres: BY_MESSAGE },
  // A run start counts its starter's live runs (LIVE_RUNS_PER_MEMBER_MAX) without scanning every run.
  { version: 31, name: 'workflow runs by starter and status', sqlite: BY_STARTER, postgres: BY_STARTER },
  // Plan and trigger creation counts its creator's live ones (LIVE_PLANS_PER_MEMBER_MAX, LIVE_TRIGGERS_PER_MEMBER_MAX).
  { version: 39, name: 'workflow plans and triggers by creator and status', sqlite: BY_CREATOR, postgres: BY_CREATOR },
];
