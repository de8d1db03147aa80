// Tests the PostgreSQL reconnect loop on a fake clock (bounded, growing backoff; fail fast only once a probe failed) and connection-loss classification.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../shared/clock.js';
import { AppError } from '../../shared/errors.js';
import { isConnectionLoss, Reconnector } from './pg-reconnect.js';

const flush = () => new Promise((r) => setImmediate(r));
const pgErr = (code: string | undefined, message = 'x') => Object.assign(new Error(message), code === undefined ? {} : { code });

test('connection losses are told from statement failures', () => {
  for (const e of [pgErr('ECONNRESET'), pgErr('ECONNREFUSED'), pgErr('EPIPE'), pgErr('57P01', 'terminating connection due to administrator command'), pgErr('57P03'), pgErr('08006'), pgErr('53300'), pgErr(undefined, 'Connection terminated unexpectedly'), pgErr(undefined, 'timeout exceeded when trying to connect')]) {
    assert.equal(isConnectionLoss(e), true, String((e as { code?: string }).code ?? e.message));
  }
  for (const e of [pgErr('23505'), pgErr('40001'), pgErr('42P01'), new TypeError('bug'), new AppError('conflict', 'x'), 'string']) assert.equal(isConnectionLoss(e), false);
});

test('after a loss: probe at once, then 100, 200, 400 … ms capped at 5 s; requests fail fast only after a failed probe; back up on success', async () => {
  const clock = new FakeClock();
  let up = false;
  let probes = 0;
  const states: Array<{ up: boolean; attempt: number; nextDelayMs?: number }> = [];
  const r = new Reconnector({ clock, probe: async () => {
      probes++;
      if (!up) throw new Error('down');
    }, onChange: (s) => states.push(s) });
  r.check();
  r.lost();
  r.lost(); // one loop, however many requests notice
  assert.equal(r.available, true, 'a single lost connection is not an outage until a probe fails');
  clock.advance(0);
  await flush();
  assert.equal(probes, 1);
  assert.equal(r.available, false);
  assert.throws(() => r.check(), (e: unknown) => e instanceof AppError && e.code === 'upstream_unavailable');
  const delays: number[] = [];
  for (let i = 0; i < 8; i++) {
    const next = states.at(-1)!.nextDelayMs!;
    delays.push(next);
    clock.advance(next - 1);
    await flush();
    assert.equal(probes, i + 1, 'no probe before its delay');
    clock.advance(1);
    await flush();
  }
  assert.deepEqual(delays, [100, 200, 400, 800, 1600, 3200, 5000, 5000]);
  up = true;
  clock.advance(5000);
  await flush();
  assert.equal(r.available, true);
  assert.deepEqual(states.at(-1), { up: true, attempt: 0 });
  r.close();
  assert.equal(clock.pending, 0, 'no timer left behind');
});
