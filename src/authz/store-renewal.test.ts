// Tests activation and generation renewal on a FakeClock with real files: 80 % renewal, jitter, overlap, expiry, failures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { HOUR, faultyFs, makeStore, readToken, sampleInput } from './testkit.js';

const TTL = 12 * HOUR;

test('activation issues an MCP credential and a published first Exec generation', async () => {
  const { store, credentialsDir, clock } = makeStore();
  const a = await store.activate(sampleInput());
  assert.match(a.info.id, /^rta_/);
  assert.match(a.mcpToken, /^atm_/);
  const exec = readToken(a.execTokenFile);
  assert.match(exec, /^atx_/);
  assert.equal(dirname(dirname(a.execTokenFile)), credentialsDir);
  const m = store.authenticate(a.mcpToken);
  const x = store.authenticate(exec);
  assert.ok(m.ok && x.ok);
  assert.equal(m.info.scope, 'mcp');
  assert.equal(x.info.scope, 'exec');
  assert.equal(x.info.authorization, a.info);
  assert.equal(m.info.authorization, a.info);
  assert.equal(x.info.expiresAt, clock.now() + TTL);
  assert.deepEqual(store.stats(), { authorizations: 1, cleanupDebt: 0, inFlight: 0 });
});

test('renewal at 80 % atomically replaces the file; the old generation keeps its own expiry, then fails as expired', async () => {
  const { store, clock } = makeStore();
  const start = clock.now();
  const a = await store.activate(sampleInput());
  const first = readToken(a.execTokenFile);
  const firstIno = statSync(a.execTokenFile).ino;
  clock.advance(0.8 * TTL - 1);
  await store.whenIdle();
  assert.equal(readToken(a.execTokenFile), first, 'not renewed before 80 %');
  clock.advance(1);
  await store.whenIdle();
  const second = readToken(a.execTokenFile);
  assert.notEqual(second, first);
  assert.match(second, /^atx_/);
  assert.notEqual(statSync(a.execTokenFile).ino, firstIno, 'replaced by rename, not rewritten in place');
  assert.deepEqual(readdirSync(dirname(a.execTokenFile)), ['token']);
  const old = store.authenticate(first);
  assert.ok(old.ok);
  assert.equal(old.info.expiresAt, start + TTL, 'the predecessor is not extended');
  const fresh = store.authenticate(second);
  assert.ok(fresh.ok);
  assert.equal(fresh.info.expiresAt, start + 0.8 * TTL + TTL);
  assert.notEqual(fresh.info.generationId, old.info.generationId);
  clock.advance(start + TTL - 1 - clock.now());
  assert.ok(store.authenticate(first).ok, 'usable until its original expiry');
  clock.advance(1);
  assert.deepEqual(store.authenticate(first), { ok: false, reason: 'expired' });
  assert.ok(store.authenticate(second).ok);
  assert.ok(store.authenticate(a.mcpToken).ok, 'the MCP credential does not rotate or expire');
});

test('the MCP credential lives across many renewals; each generation is renewed in turn', async () => {
  const { store, clock } = makeStore();
  const a = await store.activate(sampleInput());
  const seen = new Set([readToken(a.execTokenFile)]);
  for (let i = 0; i < 4; i++) {
    clock.advance(0.8 * TTL);
    await store.whenIdle();
    seen.add(readToken(a.execTokenFile));
  }
  assert.equal(seen.size, 5);
  assert.ok(store.authenticate(a.mcpToken).ok);
  assert.ok(store.authenticate(readToken(a.execTokenFile)).ok);
});

for (const [r, frac] of [[0, 0.75], [0.25, 0.775], [0.999, 0.8499]] as const) {
  test(`jitter comes from the injected random (${r} → ${frac} of TTL)`, async () => {
    const { store, clock } = makeStore({ random: () => r });
    const a = await store.activate(sampleInput());
    const first = readToken(a.execTokenFile);
    const at = Math.round(frac * TTL - 0.001 * TTL);
    clock.advance(at);
    await store.whenIdle();
    assert.equal(readToken(a.execTokenFile), first, `still the first generation at ${at}`);
    clock.advance(Math.round(0.002 * TTL));
    await store.whenIdle();
    assert.notEqual(readToken(a.execTokenFile), first);
  });
}

test('publication failure keeps the old file and generation working and retries with backoff until success, before expiry', async () => {
  let failRename = false;
  const attempts: number[] = [];
  const { store, clock } = makeStore({
    fs: faultyFs({ rename: () => failRename }, 'ENOSPC', (op) => op === 'rename' && attempts.push(clock.now())),
    renewBackoff: { baseMs: 60_000, maxMs: 10 * 60_000 },
  });
  const start = clock.now();
  const a = await store.activate(sampleInput());
  const first = readToken(a.execTokenFile);
  attempts.length = 0;
  failRename = true;
  clock.advance(0.8 * TTL);
  await store.whenIdle();
  for (let i = 0; i < 60; i++) {
    clock.advance(30_000);
    await store.whenIdle();
  }
  assert.equal(readToken(a.execTokenFile), first, 'the current file is kept');
  assert.deepEqual(readdirSync(dirname(a.execTokenFile)), ['token'], 'failed attempts leave no temp files');
  assert.ok(store.authenticate(first).ok, 'the current generation is not revoked by a failed replacement');
  const gaps = attempts.slice(1).map((t, i) => t - attempts[i]!);
  assert.deepEqual(gaps.slice(0, 5), [60_000, 120_000, 240_000, 480_000, 600_000]);
  assert.ok(attempts.every((t) => t < start + TTL));
  failRename = false;
  clock.advance(10 * 60_000);
  await store.whenIdle();
  const second = readToken(a.execTokenFile);
  assert.notEqual(second, first);
  assert.ok(store.authenticate(second).ok);
  assert.ok(store.authenticate(first).ok, 'the old generation still lives until its own expiry');
  assert.deepEqual(store.stats(), { authorizations: 1, cleanupDebt: 0, inFlight: 0 });
});

test('retries close to expiry are pulled in before it; past expiry they stay within seconds until a valid generation is back', async () => {
  let fail = false;
  const attempts: number[] = [];
  const { store, clock } = makeStore({
    fs: faultyFs({ rename: () => fail }, 'EIO', (op) => op === 'rename' && attempts.push(clock.now())),
    renewBackoff: { baseMs: 1_000, maxMs: 4 * HOUR },
  });
  const start = clock.now();
  const a = await store.activate(sampleInput());
  const stale = readToken(a.execTokenFile);
  attempts.length = 0;
  fail = true;
  clock.advance(0.8 * TTL);
  await store.whenIdle();
  while (clock.now() < start + TTL) {
    clock.advance(1_000);
    await store.whenIdle();
  }
  const beforeExpiry = attempts.filter((t) => t < start + TTL);
  // Pure doubling from 1 s gives 14 attempts in the 2.4 h window (the last 449 s before expiry); pulling each retry
  // in to half the remaining time adds attempts in those final minutes.
  assert.ok(beforeExpiry.length >= 20, `retries pulled in before expiry (got ${beforeExpiry.length})`);
  assert.ok(beforeExpiry.at(-1)! > start + TTL - 5_000, 'still retrying in the last seconds');
  const gaps = beforeExpiry.slice(1).map((t, i) => t - beforeExpiry[i]!);
  assert.ok(gaps.every((g) => g >= 1_000), 'never faster than the base delay');
  // Past expiry the runtime holds no valid generation: retries stay within seconds (not the 4 h cap), and the first one
  // after the fault clears publishes a fresh, valid generation.
  const expiredAt = attempts.length;
  for (let i = 0; i < 60; i++) {
    clock.advance(1_000);
    await store.whenIdle();
  }
  const after = attempts.slice(expiredAt);
  const gapsAfter = after.slice(1).map((t, i) => t - after[i]!);
  assert.ok(after.length >= 12, `retries every few seconds after expiry (got ${after.length} in 60 s)`);
  assert.ok(gapsAfter.every((g) => g >= 1_000 && g <= 5_000), `gaps ${gapsAfter.join(',')}`);
  fail = false;
  const clearedAt = clock.now();
  while (readToken(a.execTokenFile) === stale) {
    clock.advance(1_000);
    await store.whenIdle();
    assert.ok(clock.now() - clearedAt <= 5_000, 'a valid generation within 5 s of the fault clearing');
  }
  assert.ok(store.authenticate(readToken(a.execTokenFile)).ok);
});

test('issuance failure keeps the current file and generation and retries', async () => {
  let failExec = false;
  const { store, clock } = makeStore({
    newSecret: (p) => {
      if (p === 'atx' && failExec) throw new Error('entropy unavailable');
      return `${p}_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
    },
  });
  const a = await store.activate(sampleInput());
  const first = readToken(a.execTokenFile);
  failExec = true;
  clock.advance(0.8 * TTL);
  await store.whenIdle();
  assert.equal(readToken(a.execTokenFile), first);
  assert.ok(store.authenticate(first).ok);
  failExec = false;
  clock.advance(1_000);
  await store.whenIdle();
  assert.notEqual(readToken(a.execTokenFile), first);
});

test('an unpublished generation never authenticates', async () => {
  let fail = false;
  let written: string | undefined;
  const fs = faultyFs({ rename: () => fail });
  const open = fs.open;
  fs.open = async (p, f, m) => {
    const h = await open(p, f, m);
    return { chmod: (x) => h.chmod(x), sync: () => h.sync(), close: () => h.close(), writeFile: (d) => ((written = d), h.writeFile(d)) };
  };
  const { store, clock } = makeStore({ fs });
  await store.activate(sampleInput());
  fail = true;
  clock.advance(0.8 * TTL);
  await store.whenIdle();
  assert.ok(written);
  assert.deepEqual(store.authenticate(written), { ok: false, reason: 'revoked' });
});
