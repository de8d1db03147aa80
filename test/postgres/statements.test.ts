// Tests prepared domain statements on PostgreSQL: each fixed DML text is prepared once per connection and reused; failures, rollbacks and schema changes leave it usable.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../src/shared/errors.js';
import { openPostgresStore } from '../../src/server/store/postgres.js';
import { StatementCache } from '../../src/server/store/pg-statements.js';
import type { Sql, Store } from '../../src/server/store/types.js';
import { startCluster, type Cluster } from './cluster.js';
import { SCHEMA } from '../../src/domains/registry.js';

let cluster: Cluster;
let store: Store;
before(async () => {
  cluster = await startCluster();
  store = await openPostgresStore(await cluster.createDatabase(), { migrations: SCHEMA.postgres });
  await store.run('CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER NOT NULL)');
});
after(async () => {
  await store?.close();
  await cluster?.stop();
});

test('a DML text gets one stable name; distinct texts distinct names; utility statements and texts past the bound stay unnamed', () => {
  const c = new StatementCache(3);
  const a = c.get('SELECT v FROM kv WHERE k = ?');
  assert.equal(a.text, 'SELECT v FROM kv WHERE k = $1');
  assert.ok(a.name);
  assert.equal(c.get('SELECT v FROM kv WHERE k = ?').name, a.name, 'same text, same name');
  const b = c.get('  insert INTO kv (k, v) VALUES (?, ?)');
  assert.ok(b.name && b.name !== a.name);
  assert.equal(c.get('SAVEPOINT sp_1').name, undefined);
  assert.equal(c.get('SAVEPOINT sp_1').text, 'SAVEPOINT sp_1');
  assert.equal(c.get('DELETE FROM kv WHERE k = ?').name, undefined, 'the fourth text is past the bound of 3: sent unnamed');
  assert.equal(c.get('DELETE FROM kv WHERE k = ?').text, 'DELETE FROM kv WHERE k = $1');
});

/** This connection's prepared statements (pg_prepared_statements is per session, so it is read on the tx's own connection). */
const prepared = (sql: Sql) => sql.all<{ statement: string }>('SELECT statement FROM pg_prepared_statements', []);

test('a repeated statement is prepared on its connection and reused, inside and outside transactions', async () => {
  await store.run('INSERT INTO kv (k, v) VALUES (?, ?)', ['a', 1]);
  for (let i = 0; i < 3; i++) assert.deepEqual(await store.get('SELECT v FROM kv WHERE k = ?', ['a']), { v: 1 });
  await store.tx(async (sql) => {
    assert.deepEqual(await sql.get('SELECT v FROM kv WHERE k = ?', ['a']), { v: 1 });
    assert.deepEqual(await sql.get('SELECT v FROM kv WHERE k = ?', ['a']), { v: 1 });
    const texts = (await prepared(sql)).map((r) => r.statement);
    assert.ok(texts.includes('SELECT v FROM kv WHERE k = $1'), `prepared on this connection: ${JSON.stringify(texts)}`);
  });
});

test('a prepared statement that fails (duplicate key, rolled-back transaction) answers as before and works on the next call', async () => {
  const insert = 'INSERT INTO kv (k, v) VALUES (?, ?)';
  await store.run(insert, ['dup', 1]);
  await assert.rejects(store.run(insert, ['dup', 2]), (e: unknown) => e instanceof AppError && e.code === 'conflict');
  await assert.rejects(
    store.tx(async (sql) => {
      await sql.run(insert, ['rolled', 1]);
      throw new AppError('validation_failed', 'undo');
    }),
    /undo/,
  );
  assert.equal(await store.get('SELECT v FROM kv WHERE k = ?', ['rolled']), undefined, 'rolled back');
  assert.equal(await store.run(insert, ['rolled', 3]), 1, 'the statement still runs after the rollback');
  assert.deepEqual(await store.get('SELECT v FROM kv WHERE k = ?', ['rolled']), { v: 3 });
  // A statement that does not parse fails the same way every time (never "prepared statement does not exist").
  for (let i = 0; i < 2; i++) await assert.rejects(store.get('SELECT v FROM kv WHERE', []), (e: unknown) => (e as { code?: string }).code === '42601');
});

test('a prepared statement keeps answering after the table gains a column', async () => {
  const read = 'SELECT k, v FROM kv WHERE k = ?';
  assert.deepEqual(await store.get(read, ['a']), { k: 'a', v: 1 });
  await store.run("ALTER TABLE kv ADD COLUMN note TEXT NOT NULL DEFAULT ''");
  for (let i = 0; i < 3; i++) assert.deepEqual(await store.get(read, ['a']), { k: 'a', v: 1 });
});
