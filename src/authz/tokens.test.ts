// Tests the keyed-hash token registry: prefixes, deny reasons, no stored secret, bounded tombstones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { FakeClock } from '../shared/clock.js';
import { NO_EXPIRY, TokenRegistry } from './tokens.js';
import { HOUR, sampleInput } from './testkit.js';

const auth = { ...sampleInput(), id: 'rta_1' };

test('issued secrets carry their kind prefix and authenticate to immutable info', () => {
  const clock = new FakeClock();
  const r = new TokenRegistry(clock);
  const m = r.issue('mcp', auth, NO_EXPIRY);
  const x = r.issue('exec', auth, clock.now() + HOUR);
  assert.match(m.secret, /^atm_[A-Za-z0-9_-]{43}$/);
  assert.match(x.secret, /^atx_[A-Za-z0-9_-]{43}$/);
  const v = r.verify(x.secret);
  assert.ok(v.ok);
  assert.equal(v.credential.info.scope, 'exec');
  assert.equal(v.credential.info.authorization, auth);
  assert.ok(Object.isFrozen(v.credential.info));
  const vm = r.verify(m.secret);
  assert.ok(vm.ok && vm.credential.info.scope === 'mcp');
});

test('deny reasons: missing, unknown, expired at exactly expiresAt, revoked', () => {
  const clock = new FakeClock();
  const r = new TokenRegistry(clock);
  const x = r.issue('exec', auth, clock.now() + HOUR);
  assert.deepEqual(r.verify(undefined), { ok: false, reason: 'missing' });
  assert.deepEqual(r.verify(''), { ok: false, reason: 'missing' });
  assert.deepEqual(r.verify('atx_nope'), { ok: false, reason: 'unknown' });
  assert.deepEqual(r.verify(x.secret + 'x'), { ok: false, reason: 'unknown' });
  assert.deepEqual(r.verify('a'.repeat(10_000)), { ok: false, reason: 'unknown' });
  clock.advance(HOUR - 1);
  assert.ok(r.verify(x.secret).ok);
  clock.advance(1);
  assert.deepEqual(r.verify(x.secret), { ok: false, reason: 'expired' });
  const y = r.issue('exec', auth, clock.now() + HOUR);
  r.revoke(y.credential);
  assert.deepEqual(r.verify(y.secret), { ok: false, reason: 'revoked' });
});

test('the registry keeps only keyed hashes, never the secret', () => {
  const r = new TokenRegistry(new FakeClock());
  const x = r.issue('exec', auth, NO_EXPIRY);
  const dump = inspect(r, { depth: 20, showHidden: true, maxArrayLength: null, maxStringLength: null });
  assert.ok(!dump.includes(x.secret));
  assert.ok(!dump.includes(x.secret.slice(4)));
});

test('a different hash key does not recognize the same secret', () => {
  const clock = new FakeClock();
  const a = new TokenRegistry(clock, Buffer.alloc(32, 1));
  const b = new TokenRegistry(clock, Buffer.alloc(32, 2));
  const x = a.issue('exec', auth, NO_EXPIRY);
  assert.ok(a.verify(x.secret).ok);
  assert.deepEqual(b.verify(x.secret), { ok: false, reason: 'unknown' });
});

test('revoked tombstones are bounded first-in-first-out', () => {
  const r = new TokenRegistry(new FakeClock(), undefined, 3);
  const issued = Array.from({ length: 5 }, () => r.issue('exec', auth, NO_EXPIRY));
  for (const i of issued) r.revoke(i.credential);
  assert.equal(r.size, 3);
  assert.deepEqual(r.verify(issued[0]!.secret), { ok: false, reason: 'unknown' });
  assert.deepEqual(r.verify(issued[1]!.secret), { ok: false, reason: 'unknown' });
  assert.deepEqual(r.verify(issued[4]!.secret), { ok: false, reason: 'revoked' });
  r.revoke(issued[4]!.credential);
  assert.equal(r.size, 3, 'revoking twice does not add a second tombstone');
});
