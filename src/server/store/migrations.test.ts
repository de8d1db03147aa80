// Tests the schema history's assembly and plan: reserved-version gaps, one owner per later version, skipped steps refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../../shared/errors.js';
import { assembleMigrations, planMigrations, type MigrationStep } from './migrations.js';
import { openSqliteStore } from './sqlite.js';
import { SCHEMA } from '../../domains/registry.js';

const step = (version: number, name: string): MigrationStep => ({ version, name, sqlite: `CREATE TABLE t${version} (x INTEGER);`, postgres: `CREATE TABLE t${version} (x BIGINT);` });

test('assembly orders by version, allows a gap for a reserved version, and refuses two owners of one later version', () => {
  const list = assembleMigrations([step(3, 'c'), step(1, 'a'), step(2, 'b')], 'sqlite');
  assert.deepEqual(list.map((m) => m.version), [1, 2, 3]);
  assert.deepEqual(assembleMigrations([step(1, 'a'), step(4, 'd')], 'postgres').map((m) => m.version), [1, 4]);
  assert.throws(() => assembleMigrations([step(1, 'a'), step(2, 'b'), step(2, 'b2')], 'sqlite'), /more than one owner/);
  assert.throws(() => assembleMigrations([step(2, 'b')], 'sqlite'), /start at version 1/);
  assert.throws(() => assembleMigrations([step(1, 'a'), step(0.5, 'x')], 'sqlite'), /integers from 1/);
});

test('the plan applies what is above the newest applied step and refuses a database that skipped a step', () => {
  const list = assembleMigrations([step(1, 'a'), step(2, 'b'), step(5, 'e')], 'sqlite');
  assert.deepEqual(planMigrations(list, []).pending.map((m) => m.version), [1, 2, 5]);
  assert.deepEqual(planMigrations(list, [1, 2]).pending.map((m) => m.version), [5]);
  assert.equal(planMigrations(list, [1, 2, 5]).known, 5);
  // Step 3 landed after the database already moved to 4: refused, not applied out of order.
  const later = assembleMigrations([step(1, 'a'), step(2, 'b'), step(3, 'c'), step(4, 'd')], 'sqlite');
  assert.throws(() => planMigrations(later, [1, 2, 4]), (e: unknown) => e instanceof AppError && /never applied step 3/.test(e.message));
  assert.throws(() => planMigrations(list, [1, 2, 5, 6]), /newer than this server supports/);
});

test('a real SQLite file with a skipped step is refused and left as it was', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-mig-'));
  try {
    const path = join(dir, 'server.db');
    const all = SCHEMA.sqlite;
    // Build the file without one step that no later step needs (an index) but with every step after it.
    const skipped = all.find((m) => m.name === 'workflow runs by starter and status')!;
    assert.ok(skipped.version < all.at(-1)!.version, 'a step below the newest');
    openSqliteStore(path, { migrations: all.filter((m) => m !== skipped) }).close();
    assert.throws(() => openSqliteStore(path, { migrations: all }), new RegExp(`never applied step ${skipped.version}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
