// Tests the PostgreSQL store on a real throwaway cluster: placeholders, types, transactions, savepoints, duplicate keys and migrations.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { AppError } from '../../src/shared/errors.js';
import { openSqliteStore } from '../../src/server/store/sqlite.js';
import { } from '../../src/server/store/pg-migrations.js';
import {  } from '../../src/server/store/migrations.js';
import { openPostgresStore, toPgPlaceholders } from '../../src/server/store/postgres.js';
import { startServer } from '../../src/server/main.js';
import { TEST_ADMIN_TOKEN } from '../../src/domains/test-server.js';
import { startCluster, type Cluster } from './cluster.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOMAINS, SCHEMA, serverClient } from '../../src/domains/registry.js';

let cluster: Cluster;
before(async () => {
  cluster = await startCluster();
});
after(async () => cluster?.stop());

async function raw<T extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text, params)).rows;
  } finally {
    await c.end();
  }
}

/**
 * The two engine-specific differences. Full-text search: SQLite indexes knowledge sections in the FTS5 table kb_fts
 * (and its shadow tables); PostgreSQL in a generated tsvector column of kb_sections with a GIN index. Id counters:
 * SQLite counts in the table id_counters; PostgreSQL has one sequence per kind (id_seq_<kind>).
 */
// SQLite's own search structures: FTS5 and its views, and the impact-ordered postings built from them (PostgreSQL ranks with ts_rank).
const SQLITE_ONLY_TABLE = /^(kb_fts(_config|_data|_docsize|_idx|_vinst)?|kb_impacts|kb_impact_terms|id_counters)$/;
const SQLITE_ONLY_INDEXES = ['kb_impacts_by_rid'];
const PG_ONLY_COLUMNS: Record<string, string[]> = { kb_sections: ['tsv'] };
const PG_ONLY_INDEXES = ['kb_sections_tsv'];

const isConflict = (e: unknown) => e instanceof AppError && e.code === 'conflict' && !/members|credential|duplicate key|\\x/.test(e.message);

test('placeholders become $n outside literals, quoted identifiers and comments', () => {
  assert.equal(toPgPlaceholders('SELECT ? , ?'), 'SELECT $1 , $2');
  assert.equal(toPgPlaceholders("SELECT '?', \"a?\", ? -- why?\n, ? /* ? */"), "SELECT '?', \"a?\", $1 -- why?\n, $2 /* ? */");
  assert.equal(toPgPlaceholders("SELECT 'it''s ?', ?"), "SELECT 'it''s ?', $1");
  assert.equal(toPgPlaceholders('no params'), 'no params');
});

test('the schema mirrors SQLite: same tables, columns and indexes; BIGINT reads back as numbers; BYTEA round-trips', async () => {
  const url = await cluster.createDatabase();
  const store = await openPostgresStore(url, { migrations: SCHEMA.postgres });
  try {
    assert.equal(store.dialect, 'postgres');
    assert.equal(store.schemaVersion, SCHEMA.postgres.at(-1)!.version);
    assert.equal(SCHEMA.postgres.at(-1)!.version, SCHEMA.sqlite.at(-1)!.version);
    assert.deepEqual(SCHEMA.postgres.map((m) => [m.version, m.name]), SCHEMA.sqlite.map((m) => [m.version, m.name]));
    const dir = mkdtempSync(join(tmpdir(), 'agentteam-pgcmp-'));
    const lite = openSqliteStore(join(dir, 'x.db'), { migrations: SCHEMA.sqlite });
    try {
      const liteTables = (await lite.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")).filter((t) => !SQLITE_ONLY_TABLE.test(t.name));
      assert.ok((await lite.all("SELECT name FROM sqlite_master WHERE name = 'kb_fts'")).length === 1, 'SQLite has the FTS5 table');
      const counted = (await lite.all<{ kind: string }>('SELECT kind FROM id_counters ORDER BY kind')).map((r) => `id_seq_${r.kind}`);
      const sequences = (await store.all<{ name: string }>("SELECT sequence_name AS name FROM information_schema.sequences WHERE sequence_schema = 'public' ORDER BY sequence_name COLLATE \"C\"")).map((r) => r.name).filter((n) => n.startsWith('id_seq_'));
      assert.deepEqual(sequences, [...counted].sort(), 'one PostgreSQL sequence per SQLite counter');
      const pgTables = await store.all<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name COLLATE \"C\"");
      assert.deepEqual(pgTables.map((t) => t.name), liteTables.map((t) => t.name));
      for (const { name } of liteTables) {
        const lc = (await lite.all<{ name: string }>(`SELECT name FROM pragma_table_info('${name}') ORDER BY cid`)).map((c) => c.name);
        const pgOnly = PG_ONLY_COLUMNS[name] ?? [];
        const all = (await store.all<{ name: string }>('SELECT column_name AS name FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position', [name])).map((c) => c.name);
        for (const c of pgOnly) assert.ok(all.includes(c), `PostgreSQL ${name}.${c}`);
        const pc = all.filter((c) => !pgOnly.includes(c));
        assert.deepEqual(pc, lc, `columns of ${name}`);
      }
      const liteIdx = (await lite.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name")).map((i) => i.name).filter((i) => !SQLITE_ONLY_INDEXES.includes(i));
      const pgIdx = (await store.all<{ name: string }>("SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE '%_pkey' AND indexname NOT LIKE '%_key'")).map((i) => i.name);
      for (const i of PG_ONLY_INDEXES) assert.ok(pgIdx.includes(i), `PostgreSQL index ${i}`);
      assert.deepEqual(pgIdx.filter((i) => !PG_ONLY_INDEXES.includes(i)).sort(), liteIdx.sort());
    } finally {
      await lite.close();
      rmSync(dir, { recursive: true, force: true });
    }
    const ms = Date.UTC(2026, 0, 1, 12);
    const bytes = Buffer.from([0, 1, 2, 250, 255, 0]);
    assert.equal(await store.run("INSERT INTO members (id, name, kind, role, credential_hash, created_at) VALUES (?, 'M', 'agent', 'member', ?, ?)", ['m1', bytes, ms]), 1);
    const row = await store.get<{ created_at: unknown; credential_hash: unknown; n: unknown }>('SELECT created_at, credential_hash, (SELECT COUNT(*) FROM members) AS n FROM members WHERE id = ?', ['m1']);
    assert.equal(row!.created_at, ms);
    assert.equal(row!.n, 1);
    assert.ok(Buffer.isBuffer(row!.credential_hash));
    assert.deepEqual(row!.credential_hash, bytes);
    // The int8 parser belongs to this pool only: a plain pg client still sees strings.
    assert.deepEqual(await raw(url, 'SELECT created_at FROM members'), [{ created_at: String(ms) }]);
    // Ordering is byte order (as SQLite's BINARY), not the locale's.
    for (const id of ['b', 'B', '_a', 'a-', 'a_']) await store.run('INSERT INTO channels (id, name, created_at) VALUES (?, ?, 1)', [id, id]);
    assert.deepEqual((await store.all<{ id: string }>('SELECT id FROM channels ORDER BY id ASC')).map((r) => r.id), ['B', '_a', 'a-', 'a_', 'b']);
  } finally {
    await store.close();
  }
});

test('a duplicate key is the same conflict AppError on PostgreSQL and SQLite, naming no SQL or values', async () => {
  const url = await cluster.createDatabase();
  const store = await openPostgresStore(url, { migrations: SCHEMA.postgres });
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-pgdup-'));
  const lite = openSqliteStore(join(dir, 'x.db'), { migrations: SCHEMA.sqlite });
  try {
    for (const s of [store, lite]) {
      await s.run("INSERT INTO meta (key, value) VALUES ('k', 'v')");
      let pgErr: unknown;
      await assert.rejects(s.run("INSERT INTO meta (key, value) VALUES ('k', 'w')"), (e) => ((pgErr = e), isConflict(e)));
      await assert.rejects(s.tx((sql) => sql.run("INSERT INTO meta (key, value) VALUES ('k', 'w')")), (e) => isConflict(e) && (e as AppError).message === (pgErr as AppError).message);
      assert.equal((await s.get<{ value: string }>("SELECT value FROM meta WHERE key = 'k'"))!.value, 'v');
      assert.equal((pgErr as AppError).message, 'a conflicting record was written concurrently');
    }
  } finally {
    await store.close();
    await lite.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('transactions commit or roll back as a unit; nested tx is a savepoint; a handle is dead after commit', async () => {
  const store = await openPostgresStore(await cluster.createDatabase(), { migrations: SCHEMA.postgres });
  try {
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
        // A failed statement inside a savepoint is undone too; the transaction stays usable.
        await assert.rejects(view.tx((sql) => sql.run('INSERT INTO no_such_table VALUES (1)')));
        assert.ok(await view.get("SELECT value FROM meta WHERE key = 'outer'"));
        throw new Error('outer fails');
      }),
      /outer fails/,
    );
    assert.equal(await store.get("SELECT value FROM meta WHERE key = 'outer'"), undefined, 'outer rolled back as a unit');
    // The continuation is made inside the transaction and runs once it has committed: a setImmediate could run before the
    // COMMIT returned and read on another connection before the row was visible (a flake, not the property under test).
    let committed!: () => void;
    const afterCommit = new Promise<void>((r) => (committed = r));
    await store.tx(async (sql) => {
      await sql.run("INSERT INTO meta (key, value) VALUES ('kept', '1')");
      leaked = afterCommit.then(() => store.get<{ value: string }>("SELECT value FROM meta WHERE key = 'kept'"));
    });
    committed();
    assert.deepEqual(await leaked, { value: '1' }, 'a late continuation uses the pool, not the released connection');
    // A statement error swallowed inside the outer transaction (no savepoint) must not turn into a silent commit.
    await assert.rejects(
      store.tx(async (sql) => {
        await sql.run("INSERT INTO meta (key, value) VALUES ('lost', '1')");
        await sql.run('SELECT * FROM no_such_table').catch(() => undefined);
      }),
      (e) => e instanceof AppError && e.code === 'internal',
    );
    assert.equal(await store.get("SELECT value FROM meta WHERE key = 'lost'"), undefined);
  } finally {
    await store.close();
  }
});

test('racing read-modify-write transactions serialize: each increment is applied exactly once', async () => {
  const url = await cluster.createDatabase();
  const a = await openPostgresStore(url, { migrations: SCHEMA.postgres });
  const b = await openPostgresStore(url, { migrations: SCHEMA.postgres });
  try {
    await a.run("INSERT INTO meta (key, value) VALUES ('n', '0')");
    const bump = (s: typeof a) =>
      s.tx(async (sql) => {
        const cur = Number((await sql.get<{ value: string }>("SELECT value FROM meta WHERE key = 'n'"))!.value);
        await new Promise((r) => setImmediate(r));
        await sql.run("UPDATE meta SET value = ? WHERE key = 'n'", [String(cur + 1)]);
      });
    await Promise.all(Array.from({ length: 20 }, (_, i) => bump(i % 2 ? a : b)));
    assert.equal((await a.get<{ value: string }>("SELECT value FROM meta WHERE key = 'n'"))!.value, '20');
  } finally {
    await a.close();
    await b.close();
  }
});

test('migrations: an old database is upgraded with its data; concurrent openers apply each step once; a newer version is refused', async () => {
  const url = await cluster.createDatabase();
  const old = await openPostgresStore(url, { migrations: SCHEMA.postgres.slice(0, 1) });
  assert.equal(old.schemaVersion, 1);
  await old.run("INSERT INTO members (id, name, kind, role, credential_hash, created_at) VALUES ('agt_old', 'Old agent', 'agent', 'member', ?, 1)", [Buffer.from([9])]);
  await old.run("INSERT INTO channels (id, name, created_at) VALUES ('legacy', 'Legacy', 1)");
  await old.run("INSERT INTO messages (id, target, author_id, content, reply_to, created_at) VALUES ('msg_old', 'channel:legacy', 'agt_old', 'from v1', NULL, 2)");
  await old.close();

  // Several server processes start at once on the old database.
  const servers = await Promise.all(Array.from({ length: 4 }, () => startServer({ domains: DOMAINS,  db: url, adminToken: TEST_ADMIN_TOKEN })));
  try {
    assert.equal(new Set(servers.map((s) => s.serverId)).size, 1, 'one database, one serverId');
    const versions = await raw<{ version: number }>(url, 'SELECT version FROM schema_migrations ORDER BY version');
    assert.deepEqual(versions.map((v) => v.version), SCHEMA.postgres.map((m) => m.version));
    const client = serverClient({ baseUrl: servers[1]!.url });
    try {
      const owner = client.as((await client.bootstrap(TEST_ADMIN_TOKEN)).ownerCredential!);
      const page = await owner.messages.list({ target: 'channel:legacy' });
      assert.deepEqual(page.messages.map((m) => [m.id, m.content, m.author.name]), [['msg_old', 'from v1', 'Old agent']]);
      const task = await owner.tasks.create({ title: 'new table works' });
      assert.equal((await owner.tasks.get({ taskId: task.id })).title, 'new table works');
    } finally {
      client.close();
    }
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }

  await raw(url, "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, 'from the future', 0)", [SCHEMA.postgres.at(-1)!.version + 1]);
  await assert.rejects(openPostgresStore(url, { migrations: SCHEMA.postgres }), /newer than this server supports/);
  await assert.rejects(startServer({ domains: DOMAINS,  db: url, adminToken: TEST_ADMIN_TOKEN }), /newer than this server supports/);
  const after = await raw<{ v: number }>(url, 'SELECT MAX(version) AS v FROM schema_migrations');
  assert.equal(after[0]!.v, SCHEMA.postgres.at(-1)!.version + 1, 'left untouched');
});

test('a failing migration leaves the database at its previous version', async () => {
  const url = await cluster.createDatabase();
  await (await openPostgresStore(url, { migrations: SCHEMA.postgres.slice(0, 1) })).close();
  const broken = [...SCHEMA.postgres.slice(0, 2), { version: 3, name: 'broken', sql: 'CREATE TABLE oops (;' }];
  await assert.rejects(openPostgresStore(url, { migrations: broken }));
  const tables = await raw<{ n: string }>(url, "SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_name = 'tasks'");
  assert.equal(tables[0]!.n, '0', 'version 2 was rolled back with the failing version 3');
  const again = await openPostgresStore(url, { migrations: SCHEMA.postgres.slice(0, 1) });
  assert.equal(again.schemaVersion, 1);
  await again.close();
});

test('killed connections are replaced; a database that is gone answers upstream_unavailable, never internal', async () => {
  const own = await startCluster();
  const url = await own.createDatabase();
  const server = await startServer({ domains: DOMAINS,  db: url, adminToken: TEST_ADMIN_TOKEN });
  const client = serverClient({ baseUrl: server.url });
  try {
    const owner = client.as((await client.bootstrap(TEST_ADMIN_TOKEN)).ownerCredential!);
    await owner.tasks.create({ title: 'before' });
    // Every pooled connection is killed by the database; the server must not crash and must reconnect.
    const name = new URL(url).pathname.slice(1);
    await raw(own.url, 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    let after: unknown;
    for (let i = 0; i < 3 && !after; i++) after = await owner.tasks.create({ title: 'after' }).catch(() => undefined);
    assert.ok(after, 'a fresh connection serves the next request');
    assert.equal((await owner.tasks.list({})).tasks.length, 2);
    await own.stop();
    const e = await owner.tasks.create({ title: 'gone' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    assert.ok(e && (e as { code?: string }).code === 'upstream_unavailable', String(e));
    assert.ok(!String((e as Error).message).includes(String(own.port)));
  } finally {
    client.close();
    await server.close();
    await own.stop();
  }
});
