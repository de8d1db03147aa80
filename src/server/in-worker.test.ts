// Tests the embedded server in a worker thread: it serves, logs to its own redacted file, closes cleanly, and reports start failures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { AppError } from '../shared/errors.js';
import { defaultWorkerUrl, startServerInWorker } from './in-worker.js';
import {  } from './store/migrations.js';
import { TEST_ADMIN_TOKEN } from '../domains/test-server.js';
import { SCHEMA, serverClient } from '../domains/registry.js';

function tempHome() {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-worker-'));
  return { dir, db: join(dir, 'server.db'), logs: join(dir, 'logs'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const refused = (url: string) =>
  new Promise<boolean>((resolve) => {
    const u = new URL(url);
    const s = connect(Number(u.port), u.hostname);
    s.once('connect', () => (s.destroy(), resolve(false)));
    s.once('error', () => resolve(true));
  });

test('the worker entry is found beside the bundle, or beside this file from source', () => {
  assert.equal(defaultWorkerUrl('file:///opt/agentteam/dist/cli.mjs').href, 'file:///opt/agentteam/dist/server-worker.mjs');
  assert.equal(defaultWorkerUrl('file:///w/src/server/in-worker.ts').href, 'file:///w/src/cli/server-worker.ts');
});

test('a server in a worker serves, keeps its data across restarts, logs to server.log without secrets, and closes', async () => {
  const h = tempHome();
  try {
    const first = await startServerInWorker({ dbPath: h.db, adminToken: TEST_ADMIN_TOKEN, logDir: h.logs });
    assert.match(first.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const client = serverClient({ baseUrl: first.url });
    const info = await client.info();
    assert.equal(info.serverId, first.serverId);
    const boot = await client.bootstrap(TEST_ADMIN_TOKEN);
    const task = await client.as(boot.ownerCredential!).tasks.create({ title: 'made in a worker' });
    client.close();
    await first.close();
    await first.close(); // idempotent
    assert.ok(await refused(first.url), 'the port is closed');

    const second = await startServerInWorker({ dbPath: h.db, adminToken: TEST_ADMIN_TOKEN, logDir: h.logs });
    const c2 = serverClient({ baseUrl: second.url });
    try {
      assert.equal(second.serverId, first.serverId);
      assert.equal((await c2.as(boot.ownerCredential!).tasks.get({ taskId: task.id })).title, 'made in a worker');
    } finally {
      c2.close();
      await second.close();
    }
    const log = readFileSync(join(h.logs, 'server.log'), 'utf8');
    assert.match(log, /server listening/);
    assert.ok(!log.includes(TEST_ADMIN_TOKEN) && !log.includes(boot.ownerCredential!), 'no secret in the log');
    // The database was closed by the worker: a writer can take it exclusively.
    const raw = new Database(h.db);
    raw.pragma('locking_mode = EXCLUSIVE');
    raw.prepare("INSERT INTO meta (key, value) VALUES ('after', 'close')").run();
    raw.close();
  } finally {
    h.cleanup();
  }
});

test('a server that cannot start rejects with its own error, and leaves no thread behind', async () => {
  const h = tempHome();
  try {
    const raw = new Database(h.db);
    raw.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    raw.prepare("INSERT INTO schema_migrations VALUES (?, 'future', 0)").run(SCHEMA.sqlite.at(-1)!.version + 1);
    raw.close();
    await assert.rejects(startServerInWorker({ dbPath: h.db, adminToken: TEST_ADMIN_TOKEN }), (e: unknown) => e instanceof AppError && /newer than this server supports/.test(e.message));
    await assert.rejects(startServerInWorker({ dbPath: h.db, adminToken: 'short' }), /adminToken must be at least 16 characters/);
    assert.equal(existsSync(join(h.logs, 'server.log')), false, 'no logDir: logging is off');
  } finally {
    h.cleanup();
  }
});
