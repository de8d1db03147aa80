// Unit-tests the daemon's server link rules: which server versions a daemon works against, and start-up's retry of an unreachable server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectWithBackoff, versionSkew } from './server-link.js';
import { ServerCallError, type ServerClient } from '../server-client/client.js';
import { FakeClock } from '../shared/clock.js';

test('a daemon works against a server of the same major.minor only; a patch may differ, anything unparsable is refused', () => {
  assert.equal(versionSkew('0.1.0', '0.1.0'), undefined);
  assert.equal(versionSkew('0.1.7', '0.1.0'), undefined);
  assert.equal(versionSkew('1.2.3-rc.1', '1.2.0'), undefined);
  for (const v of ['0.2.0', '1.1.0', '', 'latest', '0.1']) assert.match(versionSkew(v, '0.1.0') ?? '', /run the same major\.minor version on both/, v);
  // A hostile version string is quoted and cut, never echoed whole.
  assert.ok((versionSkew('x'.repeat(10_000), '0.1.0') ?? '').length < 300);
});

/** A client whose every GET /v1/server fails with `err` (the server is the boundary here). */
const failing = (err: () => Error) => {
  const c = { calls: 0, info: async () => (c.calls++, Promise.reject(err())) };
  return c;
};

test('start-up retries an unreachable server with backoff, holding the process alive, then gives up with the reason', async () => {
  const clock = new FakeClock();
  const c = failing(() => new ServerCallError('upstream_unavailable', 'server unreachable (ECONNREFUSED)', 'network', { refused: true }));
  let held = 0;
  const lines: string[] = [];
  const settled = connectWithBackoff(c as unknown as ServerClient, { clock, waitMs: 10_000, say: (l) => lines.push(l), hold: () => (held++, () => held--) }).then(() => undefined, (e: Error) => e);
  let heldWhileWaiting = false;
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setImmediate(r));
    heldWhileWaiting ||= held === 1 && clock.pending === 1;
    clock.advance(500);
  }
  const e = await settled;
  // 0.5 + 1 + 2 + 4 s waited; the next 5 s would pass 10 s: five attempts, then the reason.
  assert.equal(c.calls, 5);
  assert.equal(lines.length, 4);
  assert.match(lines[0]!, /^server unreachable \(ECONNREFUSED\); retrying in 0\.5 s \(attempt 1\)$/);
  assert.match(e?.message ?? '', /^gave up after 8 s and 5 attempts: server unreachable \(ECONNREFUSED\); start the server processes/);
  assert.ok(heldWhileWaiting, 'the event loop is held while a retry is pending');
  assert.equal(held, 0, 'released when it gives up');
});

test('an untrusted certificate or a refusal is not retried', async () => {
  for (const err of [() => new ServerCallError('upstream_unavailable', "the server's certificate is not trusted (X)", 'network', { untrusted: true }), () => new ServerCallError('denied', 'no', 'client')]) {
    const c = failing(err);
    const lines: string[] = [];
    await assert.rejects(connectWithBackoff(c as unknown as ServerClient, { clock: new FakeClock(), waitMs: 60_000, say: (l) => lines.push(l), hold: () => () => undefined }), err().constructor);
    assert.equal(c.calls, 1);
    assert.deepEqual(lines, []);
  }
});
