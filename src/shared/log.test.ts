// Tests the pino redaction and the per-key token bucket of the diagnostic logger.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from './clock.js';
import { createLogger, RateLimitedLogger } from './log.js';

test('authorization headers and token fields are redacted in the log file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'log-'));
  const log = createLogger({ dir, name: 't' });
  log.info({ headers: { authorization: 'Bearer atx_SECRET1' }, token: 'atx_SECRET2', nested: { token: 'atx_SECRET3', credential: 'ats_SECRET4' } }, 'x');
  log.info({ req: { headers: { authorization: 'Bearer atm_SECRET5' } } }, 'y');
  const text = readFileSync(join(dir, 't.log'), 'utf8');
  assert.ok(text.includes('[redacted]'));
  for (const s of ['SECRET1', 'SECRET2', 'SECRET3', 'SECRET4', 'SECRET5']) assert.ok(!text.includes(s), s);
});

test('the diagnostic logger drops lines past the burst per key and reports how many it dropped', () => {
  const dir = mkdtempSync(join(tmpdir(), 'log-'));
  const clock = new FakeClock();
  const diag = new RateLimitedLogger(createLogger({ dir, name: 'd' }), clock, 3, 1);
  const written = Array.from({ length: 10 }, () => diag.warn('auth:expired', { reason: 'expired' }, 'authentication failed'));
  assert.deepEqual(written, [true, true, true, false, false, false, false, false, false, false]);
  assert.equal(diag.warn('auth:scope', { reason: 'scope' }, 'authentication failed'), true, 'keys have separate buckets');
  clock.advance(1000);
  assert.equal(diag.warn('auth:expired', { reason: 'expired' }, 'authentication failed'), true);
  const lines = readFileSync(join(dir, 'd.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, 5);
  assert.equal(lines[4].dropped, 7);
  assert.equal(lines[4].reason, 'expired');
  assert.equal(lines[0].dropped, undefined);
});
