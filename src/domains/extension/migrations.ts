// Owns the extension domain's schema step for SQLite and PostgreSQL (global version 50; never edit or reorder an applied step).
import type { MigrationStep } from '../../server/store/migrations.js';

const tables = (text: string, id: string, big: string) => `
CREATE TABLE extension_installations (
  name ${id} PRIMARY KEY CHECK (name IN ('github','gitea')),
  base_url ${text} NOT NULL,
  token ${text} NOT NULL,
  poll_interval_ms INTEGER NOT NULL,
  status ${id} NOT NULL CHECK (status IN ('active','suspended')),
  webhook_secret ${text},
  app_id ${big},
  installation_id ${big},
  private_key ${text},
  minted_token ${text},
  minted_until ${big},
  installed_by ${id} NOT NULL REFERENCES members(id),
  installed_at ${big} NOT NULL,
  updated_at ${big} NOT NULL
);
CREATE TABLE extension_watches (
  id ${id} PRIMARY KEY,
  extension ${id} NOT NULL,
  repo ${id} NOT NULL,
  number INTEGER NOT NULL,
  target ${id} NOT NULL,
  created_by ${id} NOT NULL REFERENCES members(id),
  status ${id} NOT NULL CHECK (status IN ('active','stopped')),
  error ${id},
  state ${text} NOT NULL,
  next_poll_at ${big} NOT NULL,
  failures INTEGER NOT NULL,
  created_at ${big} NOT NULL,
  updated_at ${big} NOT NULL
);
CREATE INDEX extension_watches_due ON extension_watches (status, next_poll_at, id);
CREATE INDEX extension_watches_by_creator ON extension_watches (created_by, created_at, id);
CREATE TABLE extension_deliveries (
  extension ${id} NOT NULL,
  delivery_id ${id} NOT NULL,
  received_at ${big} NOT NULL,
  PRIMARY KEY (extension, delivery_id)
);
CREATE INDEX extension_deliveries_age ON extension_deliveries (received_at);
`;

export const MIGRATIONS: readonly MigrationStep[] = [{ version: 50, name: 'extension installations, PR watches and webhook deliveries', sqlite: tables('TEXT', 'TEXT', 'INTEGER'), postgres: tables('TEXT', 'TEXT COLLATE "C"', 'BIGINT') }];
