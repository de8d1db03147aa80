// Tests revocation: order (revoke → abort → drain → remove), bounded drain, cleanup debt with capped backoff, rollback, shutdown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AppError } from '../shared/errors.js';
import { HOUR, faultyFs, makeStore, readToken, sampleInput, ticks } from './testkit.js';

test('revocation order: credentials revoked → lease aborted → drain → file removed', async () => {
  const events: string[] = [];
  let store!: ReturnType<typeof makeStore>['store'];
  let tokens: string[] = [];
  const fs = faultyFs({}, 'EIO', (op) => {
    if (op !== 'unlink' && op !== 'rmdir') return;
    events.push(`remove:${op}`);
    for (const t of tokens) assert.equal(store.authenticate(t).ok, false, 'revoked before any file removal');
  });
  const kit = makeStore({ fs });
  store = kit.store;
  const a = await store.activate(sampleInput());
  tokens = [a.mcpToken, readToken(a.execTokenFile)];
  const auth = store.authenticate(tokens[1]);
  assert.ok(auth.ok);
  const lease = store.acquire(auth.info)!;
  assert.ok(lease.live());
  lease.signal.addEventListener('abort', () => {
    events.push('abort');
    for (const t of tokens) assert.deepEqual(store.authenticate(t), { ok: false, reason: 'revoked' });
  });
  const revoked = store.revoke(a.info.id, 'exit');
  events.push('revoke-returned');
  assert.equal(lease.signal.aborted, true);
  assert.equal(lease.live(), false);
  assert.equal(store.acquire(auth.info), null, 'no new lease for a revoked authorization');
  await ticks(20);
  assert.equal(existsSync(a.execTokenFile), true, 'removal waits for the drain');
  events.push('release');
  lease.release();
  await revoked;
  assert.equal(existsSync(dirname(a.execTokenFile)), false);
  assert.deepEqual(events, ['abort', 'revoke-returned', 'release', 'remove:unlink', 'remove:rmdir']);
  assert.deepEqual(store.stats(), { authorizations: 0, cleanupDebt: 0, inFlight: 0 });
  assert.deepEqual(readdirSync(kit.credentialsDir), []);
});

test('revocation stops renewal: no generation is published afterwards', async () => {
  const { store, clock, credentialsDir } = makeStore();
  const a = await store.activate(sampleInput());
  const first = readToken(a.execTokenFile);
  await store.revoke(a.info.id, 'replacement');
  clock.advance(24 * HOUR);
  await store.whenIdle();
  assert.deepEqual(readdirSync(credentialsDir), []);
  assert.equal(clock.pending, 0, 'no renewal or retry timer left');
  assert.deepEqual(store.authenticate(first), { ok: false, reason: 'revoked' });
  assert.deepEqual(store.authenticate(a.mcpToken), { ok: false, reason: 'revoked' });
  await store.revoke(a.info.id, 'exit'); // idempotent on an already removed authorization
});

test('drain is bounded: a stuck lease does not block removal, but stays counted until released', async () => {
  const { store, clock } = makeStore({ drainTimeoutMs: 5_000 });
  const a = await store.activate(sampleInput());
  const auth = store.authenticate(readToken(a.execTokenFile));
  assert.ok(auth.ok);
  const lease = store.acquire(auth.info)!;
  const done = store.revoke(a.info.id, 'exit');
  clock.advance(4_999);
  await ticks(20);
  assert.equal(existsSync(a.execTokenFile), true);
  clock.advance(1);
  await done;
  assert.equal(existsSync(a.execTokenFile), false);
  assert.equal(store.stats().inFlight, 1, 'the undrained lease still counts toward the global bound');
  lease.release();
  lease.release();
  assert.equal(store.stats().inFlight, 0, 'release is idempotent');
});

test('cleanup failure becomes debt retried with capped exponential backoff, never restoring access', async () => {
  let failures = 5;
  const attempts: number[] = [];
  let clockRef!: { now(): number };
  const fs = faultyFs({ rmdir: () => failures-- > 0 }, 'EBUSY', (op) => op === 'rmdir' && attempts.push(clockRef.now()));
  const { store, clock } = makeStore({ fs, cleanupBackoff: { baseMs: 1_000, maxMs: 5_000 }, maxLeases: 2 });
  clockRef = clock;
  const a = await store.activate(sampleInput(1));
  const exec = readToken(a.execTokenFile);
  await store.revoke(a.info.id, 'exit');
  assert.deepEqual(store.stats(), { authorizations: 0, cleanupDebt: 1, inFlight: 0 });
  await store.activate(sampleInput(2));
  await assert.rejects(store.activate(sampleInput(3)), (e: unknown) => e instanceof AppError && e.code === 'admission_rejected', 'debt counts toward the 512-style dispatcher bound');
  for (let i = 0; i < 40; i++) {
    clock.advance(500);
    await store.whenIdle();
    assert.deepEqual(store.authenticate(exec), { ok: false, reason: 'revoked' }, 'access never restored while in debt');
    assert.deepEqual(store.authenticate(a.mcpToken), { ok: false, reason: 'revoked' });
  }
  const gaps = attempts.slice(1).map((t, i) => t - attempts[i]!);
  assert.deepEqual(gaps, [1_000, 2_000, 4_000, 5_000, 5_000]);
  assert.equal(existsSync(dirname(a.execTokenFile)), false);
  assert.deepEqual(store.stats(), { authorizations: 1, cleanupDebt: 0, inFlight: 0 });
  await store.activate(sampleInput(3));
});

test('leases of a revoked authorization in debt keep counting toward the global request bound', async () => {
  const { store, clock } = makeStore({ fs: faultyFs({ rmdir: () => true }), globalLimit: 2, drainTimeoutMs: 1_000 });
  const a = await store.activate(sampleInput(1));
  const b = await store.activate(sampleInput(2));
  const ia = store.authenticate(readToken(a.execTokenFile));
  const ib = store.authenticate(readToken(b.execTokenFile));
  assert.ok(ia.ok && ib.ok);
  const la = store.acquire(ia.info)!;
  const stuck = store.acquire(ia.info)!;
  assert.ok(la && stuck);
  const revoked = store.revoke(a.info.id, 'exit');
  assert.equal(store.acquire(ib.info), null, 'undrained leases of the revoked authorization still fill the store');
  la.release();
  clock.advance(1_000);
  await revoked;
  assert.deepEqual(store.stats(), { authorizations: 1, cleanupDebt: 1, inFlight: 1 });
  assert.ok(store.acquire(ib.info));
  assert.equal(store.acquire(ib.info), null, 'the stuck lease of the debt record still counts');
  stuck.release();
  assert.ok(store.acquire(ib.info));
});

test('launch abort: a failed publication rolls back fully and rethrows without the path', async () => {
  const { store, credentialsDir } = makeStore({ fs: faultyFs({ rename: () => true }, 'EACCES') });
  await assert.rejects(store.activate(sampleInput()), (e: unknown) => {
    assert.ok(e instanceof AppError);
    assert.ok(!e.message.includes(credentialsDir));
    return true;
  });
  assert.deepEqual(readdirSync(credentialsDir), [], 'no directory or temp file left');
  assert.deepEqual(store.stats(), { authorizations: 0, cleanupDebt: 0, inFlight: 0 });
});

test('shutdown revokes everything and waits for drain and removal', async () => {
  const { store, credentialsDir } = makeStore();
  const a = await store.activate(sampleInput(1));
  const b = await store.activate(sampleInput(2));
  const ia = store.authenticate(readToken(a.execTokenFile));
  assert.ok(ia.ok);
  const lease = store.acquire(ia.info)!;
  let finished: boolean | undefined;
  const p = store.shutdown(10_000).then((v) => (finished = v));
  await ticks(20);
  assert.equal(finished, undefined, 'waits for the in-flight request');
  assert.equal(store.authenticate(b.mcpToken).ok, false);
  assert.equal(lease.signal.aborted, true);
  lease.release();
  await p;
  assert.equal(finished, true);
  assert.deepEqual(readdirSync(credentialsDir), []);
  await assert.rejects(store.activate(sampleInput(3)), (e: unknown) => e instanceof AppError && e.code === 'admission_rejected');
});

test('bounded shutdown gives up after its timeout and reports it', async () => {
  const { store, clock } = makeStore({ fs: faultyFs({ rmdir: () => true }), cleanupBackoff: { baseMs: 60_000, maxMs: 60_000 } });
  await store.activate(sampleInput());
  const p = store.shutdown(2_000);
  await store.whenIdle();
  clock.advance(2_000);
  assert.equal(await p, false);
  assert.equal(store.stats().cleanupDebt, 1);
});

test('revocation during activation aborts the launch and leaves nothing behind', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const fs = faultyFs({});
  const rename = fs.rename;
  fs.rename = async (a, b) => (await gate, rename(a, b));
  const { store, credentialsDir } = makeStore({ fs });
  const activation = store.activate(sampleInput());
  await ticks(20);
  const shut = store.shutdown(10_000);
  release();
  await assert.rejects(activation, (e: unknown) => e instanceof AppError && e.code === 'conflict');
  assert.equal(await shut, true);
  assert.deepEqual(readdirSync(credentialsDir), []);
});

test('the child MCP credential: a distinct read-only-effect mcp credential of the same authorization, revoked with it (never outliving it)', async () => {
  const { store } = makeStore();
  const a = await store.activate(sampleInput());
  assert.notEqual(a.mcpChildToken, a.mcpToken);
  const own = store.authenticate(a.mcpToken);
  const child = store.authenticate(a.mcpChildToken);
  assert.ok(own.ok && child.ok);
  assert.equal(own.info.effect, undefined);
  assert.equal(child.info.effect, 'read-only');
  assert.equal(child.info.scope, 'mcp');
  assert.equal(child.info.authorization, own.info.authorization, 'bound to the parent authorization record');
  const lease = store.acquire(child.info);
  assert.ok(lease, 'admitted under the parent authorization (its 32-request budget)');
  const done = store.revoke(a.info.id, 'exit');
  assert.deepEqual(store.authenticate(a.mcpChildToken), { ok: false, reason: 'revoked' });
  assert.equal(lease.live(), false, 'an in-flight child request sees the revocation');
  lease.release();
  await done;
});
