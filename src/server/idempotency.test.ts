// Tests idempotency receipts on a real database (SQLite file, or PostgreSQL under AGENTTEAM_TEST_DB) with a fake clock: claim, replay, conflict, in flight, abandonment and 24 h expiry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { idempotencyKeyFrom, IdempotencyReceipts, openReceipt, PENDING_STALE_MS, RECEIPT_TTL_MS, receiptKey, requestHash, sealReceipt, type ClaimOwners } from './idempotency.js';
import type { Store } from './store/types.js';
import { openStore } from './store/open.js';
import { freshTestDb } from '../domains/test-server.js';
import { SCHEMA } from '../domains/registry.js';

async function withReceipts(fn: (r: IdempotencyReceipts, clock: FakeClock, store: Store) => Promise<void>, owners?: ClaimOwners): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-idem-'));
  const clock = new FakeClock();
  const fresh = await freshTestDb(dir); // SQLite, or PostgreSQL under AGENTTEAM_TEST_DB
  const store = await openStore(fresh.db, { schema: SCHEMA, clock });
  await store.run("INSERT INTO members (id, name, kind, role, credential_hash, created_at) VALUES ('m1', 'M', 'agent', 'member', ?, 0)", [Buffer.from([1])]);
  await store.run("INSERT INTO members (id, name, kind, role, credential_hash, created_at) VALUES ('m2', 'N', 'agent', 'member', ?, 0)", [Buffer.from([2])]);
  try {
    await fn(new IdempotencyReceipts(store, clock, owners), clock, store);
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
    assert.equal((await r.begin('m1', 'k', h1)).kind, 'new');
    await assert.rejects(r.begin('m1', 'k', h1), code('conflict'));
    await assert.rejects(r.begin('m1', 'k', h2), code('idempotency_conflict'));
    await r.complete('m1', 'k', 200, '{"ok":true,"data":1}');
    assert.deepEqual(await r.begin('m1', 'k', h1), { kind: 'replay', status: 200, body: '{"ok":true,"data":1}' });
    await assert.rejects(r.begin('m1', 'k', h2), code('idempotency_conflict'));
    // Receipts are per member.
    assert.equal((await r.begin('m2', 'k', h2)).kind, 'new');
  });
});

test('an abandoned claim frees the key; a stale pending claim is taken over; receipts expire after 24 h', async () => {
  await withReceipts(async (r, clock) => {
    await r.begin('m1', 'a', h1);
    await r.abandon('m1', 'a');
    assert.equal((await r.begin('m1', 'a', h2)).kind, 'new');
    clock.advance(PENDING_STALE_MS);
    assert.equal((await r.begin('m1', 'a', h1)).kind, 'new', 'a claim whose request died is not in flight forever');
    await r.complete('m1', 'a', 200, 'x');
    clock.advance(RECEIPT_TTL_MS - 1);
    assert.equal((await r.begin('m1', 'a', h1)).kind, 'replay');
    await assert.rejects(r.begin('m1', 'a', h2), code('idempotency_conflict'));
    clock.advance(1);
    assert.equal((await r.begin('m1', 'a', h2)).kind, 'new', 'after 24 h the key is fresh');
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

test('a pending claim whose server process is gone is released at once; a live one stays 409 until deadline + margin', async () => {
  const alive = new Set(['bt_peer']);
  const owners: ClaimOwners = { bootId: 'bt_me', alive: async (_sql, boot) => boot === 'bt_me' || alive.has(boot) };
  await withReceipts(async (r, clock, store) => {
    const pending = (key: string, boot: string) =>
      store.run("INSERT INTO idempotency_receipts (member_id, key, request_hash, state, created_at, claim) VALUES ('m1', ?, ?, 'pending', ?, ?)", [key, h1, clock.now(), `${boot}/x`]);
    await pending('crashed', 'bt_dead');
    assert.equal((await r.begin('m1', 'crashed', h1)).kind, 'new', 'its process is gone: released without waiting');
    await pending('earlier-boot', 'bt_me');
    assert.equal((await r.begin('m1', 'earlier-boot', h1)).kind, 'new', 'this process is not running that claim (an earlier boot left it)');
    await pending('peer', 'bt_peer');
    await assert.rejects(r.begin('m1', 'peer', h1), (e: unknown) => code('conflict')(e) && (e as AppError).details?.reason === 'idempotency_in_flight');
    const mine = await r.begin('m1', 'mine', h1);
    await assert.rejects(r.begin('m1', 'mine', h1), code('conflict'), 'genuinely in flight in this process');
    clock.advance(PENDING_STALE_MS);
    assert.equal((await r.begin('m1', 'peer', h1)).kind, 'new', 'past the request deadline plus margin');
    const taken = await r.begin('m1', 'mine', h1);
    assert.equal(taken.kind, 'new');
    // The original request, still running past its deadline, cannot complete any more: its writes roll back.
    await assert.rejects(
      r.runClaimed('m1', 'mine', (mine as { claim: string }).claim, async () => ({ status: 200, body: 'late' })),
      code('conflict'),
    );
    alive.delete('bt_peer');
  }, owners);
});

test('receipts are sealed with the requester credential: not plaintext at rest, replayed only with the same credential', async () => {
  const secret = Buffer.alloc(32, 7);
  const k = receiptKey(secret, 'ats_requester-credential', 'm1', 'agent-1');
  const body = '{"ok":true,"data":{"credential":"ats_agent-secret"}}';
  await withReceipts(async (r, _clock, store) => {
    const b = await r.begin('m1', 'agent-1', h1, k);
    await r.runClaimed('m1', 'agent-1', (b as { claim: string }).claim, async () => ({ status: 200, body }), k);
    const row = await store.get<{ response: string }>("SELECT response FROM idempotency_receipts WHERE key = 'agent-1'");
    assert.ok(!row!.response.includes('ats_agent-secret') && !row!.response.includes('credential'), 'no plaintext in the stored receipt');
    assert.deepEqual(await r.begin('m1', 'agent-1', h1, k), { kind: 'replay', status: 200, body });
    const other = receiptKey(secret, 'ats_someone-else', 'm1', 'agent-1');
    await assert.rejects(r.begin('m1', 'agent-1', h1, other), code('idempotency_conflict'));
  });
  assert.throws(() => openReceipt(receiptKey(secret, 'x', 'm1', 'k'), sealReceipt(k, body)), code('idempotency_conflict'));
});
