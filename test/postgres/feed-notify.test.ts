// Tests the turn feed's push across server processes on PostgreSQL: a message committed through one server notifies every store's LISTEN connection; a killed listen connection comes back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { ServerApi } from '../../src/server-client/api.js';
import { ServerClient } from '../../src/server-client/client.js';
import { startServer, type RunningServer } from '../../src/server/main.js';
import { PgListener } from '../../src/server/store/pg-listen.js';
import { TEST_ADMIN_TOKEN } from '../../src/domains/test-server.js';
import { startCluster, type Cluster } from './cluster.js';
import { DOMAINS, serverClient } from '../../src/domains/registry.js';

let cluster: Cluster;
let db: string;
let b: RunningServer;
let cb: ServerClient;
let ownerB: ServerApi;
let listener: PgListener;
let wakes = 0;
let onWake: (() => void) | undefined;

/** Resolves at the next wake of the listener; rejects after `ms` (a liveness bound, not a speed claim). */
function nextWake(ms = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('no notification reached the LISTEN connection')), ms);
    onWake = () => {
      clearTimeout(t);
      onWake = undefined;
      resolve();
    };
  });
}

before(async () => {
  cluster = await startCluster();
  db = await cluster.createDatabase();
  b = await startServer({ domains: DOMAINS,  db, adminToken: TEST_ADMIN_TOKEN });
  cb = serverClient({ baseUrl: b.url });
  ownerB = cb.as((await cb.bootstrap(TEST_ADMIN_TOKEN, { ownerName: 'Owner' })).ownerCredential!);
  // Stands for another server process's store: its own LISTEN connection on the same database.
  listener = new PgListener(db);
  const connected = nextWake();
  listener.on(() => {
    wakes++;
    onWake?.();
  });
  await connected;
});
after(async () => {
  await listener?.close();
  cb?.close();
  await b?.close();
  await cluster?.stop();
});

test('a message committed through one server notifies a LISTEN connection of another store on the same database (failed before: no NOTIFY)', async () => {
  const woke = nextWake();
  await ownerB.messages.send({ target: 'channel:general', content: 'wake the other process' });
  await woke;
  assert.ok(wakes >= 2);
});

test('killed LISTEN connections (every store\'s) are re-opened and notified again', async () => {
  const admin = new pg.Client({ connectionString: db });
  await admin.connect();
  try {
    const pids = (await admin.query("SELECT pid FROM pg_stat_activity WHERE application_name = 'agentteam-listen'")).rows.map((r) => r.pid as number);
    assert.equal(pids.length, 2, 'one listen connection per store (the server\'s and this one)');
    const reopened = nextWake();
    for (const pid of pids) await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await reopened; // the re-opened connection wakes readers once for what it may have missed
    const again = (await admin.query("SELECT pid FROM pg_stat_activity WHERE application_name = 'agentteam-listen'")).rows.map((r) => r.pid as number);
    assert.ok(again.length >= 1 && again.every((p) => !pids.includes(p)), 'a new listen connection');
    const woke = nextWake();
    await ownerB.messages.send({ target: 'channel:general', content: 'after the reconnect' });
    await woke;
  } finally {
    await admin.end();
  }
});

test("a store's own commits (its origin in the payload) do not wake its listener again: they already woke this process", async () => {
  const admin = new pg.Client({ connectionString: db });
  await admin.connect();
  try {
    const before = wakes;
    const woke = nextWake();
    await admin.query("SELECT pg_notify('agentteam_feed', $1)", [listener.origin]);
    await admin.query("SELECT pg_notify('agentteam_feed', 'another-process')");
    await woke;
    // Settle: an own-origin wake, had it not been skipped, arrives before the other one (one connection, in order).
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(wakes - before, 1, 'the own-origin notification woke the listener');
  } finally {
    await admin.end();
  }
});
