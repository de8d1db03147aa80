// Owns the `approval` domain schema steps for SQLite and PostgreSQL (global version numbers; never edit or reorder an applied step).
import type { MigrationStep } from '../../server/store/migrations.js';

const table = (text: string, id: string, big: string) => `
CREATE TABLE approvals (
  id ${id} PRIMARY KEY,
  subject ${id} NOT NULL,
  reason ${text} NOT NULL,
  notify ${id} NOT NULL,
  status ${id} NOT NULL CHECK (status IN ('pending','approved','rejected','cancelled')),
  requested_by ${id} NOT NULL REFERENCES members(id),
  decided_by ${id} REFERENCES members(id),
  note ${text},
  revision INTEGER NOT NULL,
  created_at ${big} NOT NULL,
  updated_at ${big} NOT NULL
);
CREATE INDEX approvals_by_created ON approvals (created_at, id);
CREATE INDEX approvals_by_status ON approvals (status, created_at, id);
CREATE INDEX approvals_by_requester ON approvals (requested_by, created_at, id);
`;

export const MIGRATIONS: readonly MigrationStep[] = [{ version: 13, name: 'approvals', sqlite: table('TEXT', 'TEXT', 'INTEGER'), postgres: table('TEXT', 'TEXT COLLATE "C"', 'BIGINT') }];
