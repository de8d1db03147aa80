// Tests idempotency receipts on a real database (SQLite file, or PostgreSQL under AGENTTEAM_TEST_DB) with a fake clock: claim, replay, conflict, in flight, abandonment and 24 h expiry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { idempotencyKeyFrom, IdempotencyReceipts, PENDING_STALE_MS, RECEIPT_TTL_MS, requestHash } from './idempotency.js';
import { openStore } from './store/open.js';
import { freshTestDb } from './test-helpers.js';

async function withReceipts(fn: (r: IdempotencyReceipts, clock: FakeClock) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-idem-'));
  const clock = new FakeClock();
  const fresh = await freshTestDb(dir); // SQLite, or PostgreSQL under AGENTTEAM_TEST_DB
  const store = await openStore(fresh.db, { clock });
  await store.run("INSERT INTO members (id, name, kind, role, credential_hash, created_at) VALUES ('m1', 'M', 'agent', 'member', ?, 0)", [Buffer.from([1])]);
  await store.run("INSERT INTO members (id, name, kind, role, credential_hash, created_at) VALUES ('m2', 'N', 'agent', 'member', ?, 0)", [Buffer.from([2])]);
  try {
    await fn(new IdempotencyReceipts(store, clock), clock);
  } finally {
    await store.close();
    await fresh.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const code = (c: string) => (e: unknown) => e instanceof AppError && e.code === c;
const h1 = requestHash('POST', '/v1/tasks', { title: 'a' });
const h2 = requestHash('POST', '/v1/tasks', { title: 'b' });

test('claim → in flight 409 → complete → replay; a different request is 422', async () => {
  await withReceipts(async (r) => {
    assert.deepEqual(await r.begin('m1', 'k', h1), { kind: 'new' });
    await assert.rejects(r.begin('m1', 'k', h1), code('conflict'));
    await assert.rejects(r.begin('m1', 'k', h2), code('idempotency_conflict'));
    await r.complete('m1', 'k', 200, '{"ok":true,"data":1}');
    assert.deepEqual(await r.begin('m1', 'k', h1), { kind: 'replay', status: 200, body: '{"ok":true,"data":1}' });
    await assert.rejects(r.begin('m1', 'k', h2), code('idempotency_conflict'));
    // Receipts are per member.
    assert.deepEqual(await r.begin('m2', 'k', h2), { kind: 'new' });
  });
});

test('an abandoned claim frees the key; a stale pending claim is taken over; receipts expire after 24 h', async () => {
  await withReceipts(async (r, clock) => {
    await r.begin('m1', 'a', h1);
    await r.abandon('m1', 'a');
    assert.deepEqual(await r.begin('m1', 'a', h2), { kind: 'new' });
    clock.advance(PENDING_STALE_MS);
    assert.deepEqual(await r.begin('m1', 'a', h1), { kind: 'new' }, 'a claim whose request died is not in flight forever');
    await r.complete('m1', 'a', 200, 'x');
    clock.advance(RECEIPT_TTL_MS - 1);
    assert.equal((await r.begin('m1', 'a', h1)).kind, 'replay');
    await assert.rejects(r.begin('m1', 'a', h2), code('idempotency_conflict'));
    clock.advance(1);
    assert.deepEqual(await r.begin('m1', 'a', h2), { kind: 'new' }, 'after 24 h the key is fresh');
    await r.complete('m1', 'a', 200, 'y');
    clock.advance(RECEIPT_TTL_MS);
    assert.equal(await r.purgeExpired(), 1);
  });
});

test('key headers: format is bounded and Idempotency-Key must equal X-Request-ID', () => {
  assert.equal(idempotencyKeyFrom({}), undefined);
  assert.equal(idempotencyKeyFrom({ 'idempotency-key': 'a.b:c-d_e' }), 'a.b:c-d_e');
  assert.equal(idempotencyKeyFrom({ 'x-request-id': 'r1' }), 'r1');
  assert.equal(idempotencyKeyFrom({ 'idempotency-key': 'r1', 'x-request-id': 'r1' }), 'r1');
  assert.throws(() => idempotencyKeyFrom({ 'idempotency-key': 'r1', 'x-request-id': 'r2' }), code('invalid_input'));
  assert.throws(() => idempotencyKeyFrom({ 'idempotency-key': 'x'.repeat(129) }), code('invalid_input'));
  assert.throws(() => idempotencyKeyFrom({ 'idempotency-key': 'a/b' }), code('invalid_input'));
  assert.throws(() => idempotencyKeyFrom({ 'idempotency-key': '' }), code('invalid_input'));
  assert.notEqual(requestHash('POST', '/v1/tasks', { a: 1 }), requestHash('POST', '/v1/reviews', { a: 1 }));
});
