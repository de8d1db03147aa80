// Tests the SQLite store: pragmas, upgrading an older database file, refusing a newer one, and transaction rollback.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startServer } from '../main.js';
import { TEST_ADMIN_TOKEN } from '../../domains/test-server.js';
import { AppError } from '../../shared/errors.js';
import {  } from './migrations.js';
import { openSqliteStore } from './sqlite.js';
import { DOMAINS, SCHEMA, serverClient } from '../../domains/registry.js';

function tempDb(): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-store-'));
  return { path: join(dir, 'server.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const tables = (path: string) => {
  const db = new Database(path, { readonly: true });
  const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
  db.close();
  return names;
};

test('a fresh store is at the latest version with WAL, foreign keys and a busy timeout', async () => {
  const { path, cleanup } = tempDb();
  try {
    const store = openSqliteStore(path, { migrations: SCHEMA.sqlite });
    assert.equal(store.schemaVersion, SCHEMA.sqlite.at(-1)!.version);
    assert.equal((await store.get<{ journal_mode: string }>('PRAGMA journal_mode'))!.journal_mode, 'wal');
    assert.equal((await store.get<{ foreign_keys: number }>('PRAGMA foreign_keys'))!.foreign_keys, 1);
    assert.ok((await store.get<{ timeout: number }>('PRAGMA busy_timeout'))!.timeout > 0);
    const versions = await store.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    assert.deepEqual(versions.map((v) => v.version), SCHEMA.sqlite.map((m) => m.version));
    await assert.rejects(store.run("INSERT INTO channel_members (channel_id, member_id) VALUES ('nope', 'nobody')"), /FOREIGN KEY/);
    await store.close();
  } finally {
    cleanup();
  }
});

test('a database at migration version 1 is upgraded in place with its data intact and served', async () => {
  const { path, cleanup } = tempDb();
  try {
    const old = openSqliteStore(path, { migrations: SCHEMA.sqlite.slice(0, 1) });
    assert.equal(old.schemaVersion, 1);
    await old.close();
    assert.ok(!tables(path).includes('tasks'));
    // Data written by the version-1 server: a channel and a message (no owner yet).
    const raw = new Database(path);
    raw.prepare("INSERT INTO members (id, name, kind, role, credential_hash, created_at) VALUES ('agt_old', 'Old agent', 'agent', 'member', x'00', 1)").run();
    raw.prepare("INSERT INTO channels (id, name, created_at) VALUES ('legacy', 'Legacy', 1)").run();
    raw.prepare("INSERT INTO messages (id, target, author_id, content, reply_to, created_at) VALUES ('msg_old', 'channel:legacy', 'agt_old', 'from v1', NULL, 2)").run();
    raw.close();

    const server = await startServer({ domains: DOMAINS,  dbPath: path, adminToken: TEST_ADMIN_TOKEN });
    const client = serverClient({ baseUrl: server.url });
    try {
      assert.ok(['tasks', 'reviews', 'idempotency_receipts'].every((n) => tables(path).includes(n)));
      const boot = await client.bootstrap(TEST_ADMIN_TOKEN);
      const owner = client.as(boot.ownerCredential!);
      const page = await owner.messages.list({ target: 'channel:legacy' });
      assert.deepEqual(page.messages.map((m) => [m.id, m.content, m.author.name]), [['msg_old', 'from v1', 'Old agent']]);
      assert.ok((await owner.members.list()).some((m) => m.id === 'agt_old'));
      const task = await owner.tasks.create({ title: 'new table works' });
      assert.equal((await owner.tasks.get({ taskId: task.id })).title, 'new table works');
    } finally {
      client.close();
      await server.close();
    }
    const db = new Database(path, { readonly: true });
    assert.equal((db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number }).v, SCHEMA.sqlite.at(-1)!.version);
    db.close();
  } finally {
    cleanup();
  }
});

test('a database from a newer version is refused with a clear error and left untouched', async () => {
  const { path, cleanup } = tempDb();
  try {
    await openSqliteStore(path, { migrations: SCHEMA.sqlite }).close();
    const raw = new Database(path);
    raw.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'from the future', 0)").run(SCHEMA.sqlite.at(-1)!.version + 1);
    raw.close();
    assert.throws(() => openSqliteStore(path, { migrations: SCHEMA.sqlite }), /newer than this server supports/);
    await assert.rejects(startServer({ domains: DOMAINS,  dbPath: path, adminToken: TEST_ADMIN_TOKEN }), /newer than this server supports/);
    const db = new Database(path, { readonly: true });
    assert.equal((db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number }).v, SCHEMA.sqlite.at(-1)!.version + 1);
    db.close();
  } finally {
    cleanup();
  }
});

test('a failing migration leaves the file at its previous version', async () => {
  const { path, cleanup } = tempDb();
  try {
    await openSqliteStore(path, { migrations: SCHEMA.sqlite.slice(0, 1) }).close();
    const broken = [...SCHEMA.sqlite.slice(0, 2), { version: 3, name: 'broken', sql: 'CREATE TABLE oops (; ' }];
    assert.throws(() => openSqliteStore(path, { migrations: broken }));
    assert.ok(!tables(path).includes('tasks'), 'version 2 was rolled back with the failing version 3');
    const again = openSqliteStore(path, { migrations: SCHEMA.sqlite.slice(0, 1) });
    assert.equal(again.schemaVersion, 1);
    await again.close();
  } finally {
    cleanup();
  }
});

test('transactions commit together or roll back together, and run one at a time', async () => {
  const { path, cleanup } = tempDb();
  try {
    const store = openSqliteStore(path, { migrations: SCHEMA.sqlite });
    await assert.rejects(
      store.tx(async (sql) => {
        await sql.run("INSERT INTO meta (key, value) VALUES ('a', '1')");
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(await store.get("SELECT value FROM meta WHERE key = 'a'"), undefined);
    const order: string[] = [];
    const slow = store.tx(async (sql) => {
      await sql.run("INSERT INTO meta (key, value) VALUES ('b', '1')");
      await new Promise((r) => setImmediate(r));
      order.push('slow');
    });
    const fast = store.tx(async (sql) => {
      order.push(`fast sees ${(await sql.get<{ value: string }>("SELECT value FROM meta WHERE key = 'b'"))?.value}`);
    });
    await Promise.all([slow, fast]);
    assert.deepEqual(order, ['slow', 'fast sees 1']);
    await store.close();
  } finally {
    cleanup();
  }
});

test('a plain read while a transaction is open waits for it and never sees its uncommitted writes; an idle store answers at once', async () => {
  const { path, cleanup } = tempDb();
  try {
    const store = openSqliteStore(path, { migrations: SCHEMA.sqlite });
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const tx = store.tx(async (sql) => {
      await sql.run("INSERT INTO meta (key, value) VALUES ('c', 'uncommitted')");
      await gate;
      await sql.run("UPDATE meta SET value = 'committed' WHERE key = 'c'");
      seen.push('tx');
    });
    const read = store.get<{ value: string }>("SELECT value FROM meta WHERE key = 'c'").then((r) => seen.push(`read ${r?.value}`));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(seen, []);
    release();
    await Promise.all([tx, read]);
    assert.deepEqual(seen, ['tx', 'read committed']);
    // Idle again: a read and a plain write run at once, in order.
    await store.run("UPDATE meta SET value = 'later' WHERE key = 'c'");
    assert.equal((await store.get<{ value: string }>("SELECT value FROM meta WHERE key = 'c'"))?.value, 'later');
    await store.close();
    await assert.rejects(store.get('SELECT 1'), /closed/);
  } finally {
    cleanup();
  }
});

test('a transaction passed on with within() is joined; a nested tx is a savepoint; a handle is dead after commit', async () => {
  const { path, cleanup } = tempDb();
  try {
    const store = openSqliteStore(path, { migrations: SCHEMA.sqlite });
    let leaked: Promise<unknown> | undefined;
    await assert.rejects(
      store.tx(async (outer) => {
        const view = store.within(outer); // no ambient joining: the transaction is passed on explicitly
        await view.run("INSERT INTO meta (key, value) VALUES ('outer', '1')");
        await assert.rejects(
          view.tx(async (sql) => {
            await sql.run("INSERT INTO meta (key, value) VALUES ('inner', '1')");
            throw new Error('inner fails');
          }),
          /inner fails/,
        );
        assert.equal(await view.get("SELECT value FROM meta WHERE key = 'inner'"), undefined, 'savepoint rolled back');
        assert.ok(await view.get("SELECT value FROM meta WHERE key = 'outer'"));
        throw new Error('outer fails');
      }),
      /outer fails/,
    );
    assert.equal(await store.get("SELECT value FROM meta WHERE key = 'outer'"), undefined, 'outer rolled back as a unit');
    await store.tx(async (sql) => {
      await sql.run("INSERT INTO meta (key, value) VALUES ('kept', '1')");
      // Scheduled inside the transaction but running after the commit.
      leaked = new Promise((resolve, reject) => setImmediate(() => store.get("SELECT value FROM meta WHERE key = 'kept'").then(resolve, reject)));
    });
    const busy = store.tx(async (sql) => {
      await sql.run("UPDATE meta SET value = '2' WHERE key = 'kept'");
      await new Promise((r) => setImmediate(r));
      await sql.run("UPDATE meta SET value = '3' WHERE key = 'kept'");
    });
    // The late continuation queues behind the next transaction instead of reading its uncommitted state.
    assert.deepEqual(await leaked!, { value: '3' });
    await busy;
    await store.close();
  } finally {
    cleanup();
  }
});

test('a duplicate key is a typed conflict naming no SQL, table or value (the same error the PostgreSQL store raises)', async () => {
  const { path, cleanup } = tempDb();
  try {
    const store = openSqliteStore(path, { migrations: SCHEMA.sqlite });
    await store.run("INSERT INTO meta (key, value) VALUES ('k', 'v')");
    for (const attempt of [() => store.run("INSERT INTO meta (key, value) VALUES ('k', 'w')"), () => store.tx((sql) => sql.run("INSERT INTO meta (key, value) VALUES ('k', 'w')"))]) {
      await assert.rejects(attempt(), (e: unknown) => e instanceof AppError && e.code === 'conflict' && e.message === 'a conflicting record was written concurrently');
    }
    // Other constraint failures are not conflicts.
    await assert.rejects(store.run("INSERT INTO channel_members (channel_id, member_id) VALUES ('nope', 'nobody')"), (e: unknown) => !(e instanceof AppError) && /FOREIGN KEY/.test(String(e)));
    assert.equal((await store.get<{ value: string }>("SELECT value FROM meta WHERE key = 'k'"))!.value, 'v');
    await store.close();
  } finally {
    cleanup();
  }
});
