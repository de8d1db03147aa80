// Owns the `workspace` domain schema steps for SQLite and PostgreSQL (global version numbers; never edit or reorder an applied step).
import type { MigrationStep } from '../../server/store/migrations.js';

export const MIGRATIONS: readonly MigrationStep[] = [
  {
    version: 11,
    name: 'workspace member directory',
    sqlite: 'CREATE INDEX members_by_name ON members (name, id);',
    postgres: 'CREATE INDEX members_by_name ON members (name, id);',
  },
];
