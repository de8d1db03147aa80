// Tests startServer: serverId and credentials persist across restarts (on either engine), workspaceId appears at bootstrap, bad options fail fast.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { FakeClock } from '../shared/clock.js';
import { CLOSE_GRACE_MS, startServer } from './main.js';
import { freshTestDb, TEST_ADMIN_TOKEN } from '../domains/test-server.js';
import { DOMAINS, serverClient } from '../domains/registry.js';

test('the serverId, workspace and member credentials survive a restart on the same database file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-main-'));
  const fresh = await freshTestDb(dir); // SQLite, or PostgreSQL under AGENTTEAM_TEST_DB
  const db = fresh.db;
  try {
    const s1 = await startServer({ domains: DOMAINS,  db, adminToken: TEST_ADMIN_TOKEN });
    assert.match(s1.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const c1 = serverClient({ baseUrl: s1.url });
    const before = await c1.info();
    assert.equal(before.serverId, s1.serverId);
    assert.equal(before.workspaceId, null);
    const boot = await c1.bootstrap(TEST_ADMIN_TOKEN, {});
    assert.equal(boot.owner.name, 'Owner');
    const agent = await c1.as(boot.ownerCredential!).members.createAgent({ name: 'a' });
    c1.close();
    await s1.close();
    await s1.close(); // idempotent

    const s2 = await startServer({ domains: DOMAINS,  db, adminToken: 'a-different-admin-token-xyz' });
    const c2 = serverClient({ baseUrl: s2.url });
    try {
      assert.equal(s2.serverId, s1.serverId);
      const info = await c2.info();
      assert.equal(info.workspaceId, boot.workspaceId);
      assert.equal((await c2.as(agent.credential).members.me()).id, agent.agent.id);
      assert.equal((await c2.as(boot.ownerCredential!).members.me()).role, 'owner');
      // The admin token is per start: the old one no longer works, the new one finds the existing workspace.
      await assert.rejects(c2.bootstrap(TEST_ADMIN_TOKEN), (e: { code?: string }) => e.code === 'denied');
      assert.equal((await c2.bootstrap('a-different-admin-token-xyz')).created, false);
    } finally {
      c2.close();
      await s2.close();
    }
  } finally {
    await fresh.drop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a short admin token and an occupied port are refused at start', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-main-'));
  try {
    await assert.rejects(startServer({ domains: DOMAINS,  dbPath: join(dir, 'a.db'), adminToken: 'short' }), /adminToken/);
    const s = await startServer({ domains: DOMAINS,  dbPath: join(dir, 'b.db'), adminToken: TEST_ADMIN_TOKEN });
    const port = Number(new URL(s.url).port);
    await assert.rejects(startServer({ domains: DOMAINS,  dbPath: join(dir, 'c.db'), adminToken: TEST_ADMIN_TOKEN, port }), /EADDRINUSE/);
    await s.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('close is bounded: a connection stuck mid-request is cut after the grace period (on the Clock), not awaited forever', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-main-'));
  const clock = new FakeClock();
  // requestTimeoutMs 0: the listener itself would never time the stuck request out.
  const s = await startServer({ domains: DOMAINS,  dbPath: join(dir, 'server.db'), adminToken: TEST_ADMIN_TOKEN, clock, limits: { requestTimeoutMs: 0 } });
  const sock = connect(Number(new URL(s.url).port), '127.0.0.1');
  try {
    await new Promise<void>((r) => sock.once('connect', () => r()));
    const gone = new Promise<void>((r) => sock.once('close', () => r()));
    // Headers promise a body that never comes: the connection is busy, never idle (and the listener never times it out).
    await new Promise<void>((r) => sock.write(`POST /v1/admin/bootstrap HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${TEST_ADMIN_TOKEN}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{`, () => r()));
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    const closing = s.close();
    // Without the cut, close would wait for this connection forever (the test would end with close still pending).
    clock.advance(CLOSE_GRACE_MS);
    await gone;
    await closing;
  } finally {
    sock.destroy();
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
