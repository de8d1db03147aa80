// Tests that schedules really fire (SQLite, or PostgreSQL via the suites runner), on a fake clock: once per window, as the
// creator, across DST in New York and Berlin, across downtime and restarts (missedPolicy skip|fireOnce), with two
// schedulers racing on one database, bounded per tick, and recorded as skipped when the creator was removed or may no
// longer read the target.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerApi } from '../../server-client/api.js';
import { FakeClock } from '../../shared/clock.js';
import { createDomains } from '../../server/app.js';
import { startServer } from '../../server/main.js';
import { openStore } from '../../server/store/open.js';
import { startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../test-server.js';
import { RUNS_KEPT, type ScheduleRunDto } from './contract.js';
import { BATCH, TICK_MS, type Scheduler } from './scheduler.js';
import { DOMAINS, SCHEMA, serverClient } from '../registry.js';

const Z = (s: string) => Date.parse(s);

interface Env {
  t: TestServer;
  clock: FakeClock;
  alice: ServerApi;
  aliceCred: string;
  target: string;
  /** Moves the clock to `instant` and lets one scheduler tick run at (or just after) it. */
  tickAt(instant: number): Promise<void>;
  /** Stops the server, moves the clock by `downMs` (the server is down), starts a new server on the same database. */
  restart(downMs: number): Promise<void>;
}

async function withEnv(start: string, fn: (e: Env) => Promise<void>): Promise<void> {
  const clock = new FakeClock(Z(start));
  const t = await startTestServer({ clock });
  const a = await t.owner.members.createAgent({ name: 'alice' });
  const e: Env = {
    t,
    clock,
    alice: t.client.as(a.credential),
    aliceCred: a.credential,
    target: '',
    async tickAt(instant) {
      clock.advance(Math.max(0, instant - clock.now()));
      await t.server.idle!();
      clock.advance(TICK_MS);
      await t.server.idle!();
    },
    async restart(downMs) {
      await t.server.close();
      t.client.close();
      clock.advance(downMs);
      t.server = await startServer({ domains: DOMAINS,  db: t.db, adminToken: TEST_ADMIN_TOKEN, clock });
      t.client = serverClient({ baseUrl: t.server.url });
      t.owner = t.client.as(t.ownerCredential);
      e.alice = t.client.as(e.aliceCred);
    },
  };
  e.target = `task:${(await e.alice.tasks.create({ title: 'Schedules' })).id}`;
  const original = t.server;
  try {
    await fn(e);
  } finally {
    // stop() closes the server and client it started; a restarted pair is closed here.
    if (t.server !== original) (t.client.close(), await t.server.close());
    await t.stop();
  }
}

const runsOf = async (api: ServerApi, scheduleId: string): Promise<ScheduleRunDto[]> => (await api.schedules.runs({ scheduleId, limit: 100 })).runs.reverse();
const posted = async (api: ServerApi, target: string, content: string) => (await api.messages.list({ target, limit: 100 })).messages.filter((m) => m.content === content);

test('a one-shot fires once at its time, as its creator; an early tick does not fire it; restarts neither lose nor repeat it', () =>
  withEnv('2026-01-01T12:00:00Z', async (e) => {
    const s = await e.alice.schedules.create({ target: e.target, content: 'release notes due', at: '2026-01-01T12:10:00Z' });
    await e.tickAt(Z('2026-01-01T12:05:00Z'));
    assert.deepEqual(await runsOf(e.alice, s.id), [], 'not yet due');
    // Down just before its time, back 30 s after it: within the grace, so it fires on time.
    await e.restart(Z('2026-01-01T12:10:30Z') - e.clock.now());
    await e.tickAt(e.clock.now());
    const [run, ...rest] = await runsOf(e.alice, s.id);
    assert.deepEqual(rest, []);
    assert.deepEqual([run!.status, run!.scheduledFor, run!.occurrences, run!.error], ['sent', '2026-01-01T12:10:00.000Z', 1, null]);
    const msgs = await posted(e.alice, e.target, 'release notes due');
    assert.equal(msgs.length, 1);
    assert.deepEqual([msgs[0]!.id, msgs[0]!.author.name], [run!.messageId, 'alice']);
    assert.equal((await e.alice.schedules.get({ scheduleId: s.id })).nextRunAt, null);
    await e.restart(60_000);
    await e.tickAt(e.clock.now() + 3_600_000);
    assert.equal((await runsOf(e.alice, s.id)).length, 1, 'a restart does not fire it again');
    assert.equal((await posted(e.alice, e.target, 'release notes due')).length, 1);
    await assert.rejects(e.alice.schedules.enable({ scheduleId: s.id }).then(() => e.alice.schedules.disable({ scheduleId: s.id })).then(() => e.alice.schedules.enable({ scheduleId: s.id })), (x: { code?: string }) => x.code === 'conflict', 'a past one-shot cannot be re-enabled');
  }));

/** Creates a cron schedule at `start`, then ticks at each nextRunAt `n` times; returns the fired windows. */
async function fired(start: string, cron: string, timeZone: string, n: number): Promise<string[]> {
  let out: string[] = [];
  await withEnv(start, async (e) => {
    const s = await e.alice.schedules.create({ target: e.target, content: `tick ${cron} ${timeZone}`, cron, timeZone });
    for (let i = 0; i < n; i++) await e.tickAt(Date.parse((await e.alice.schedules.get({ scheduleId: s.id })).nextRunAt!));
    const runs = await runsOf(e.alice, s.id);
    assert.ok(runs.every((r) => r.status === 'sent' && r.occurrences === 1), JSON.stringify(runs));
    assert.equal((await posted(e.alice, e.target, `tick ${cron} ${timeZone}`)).length, n, 'one message per window');
    out = runs.map((r) => r.scheduledFor);
  });
  return out;
}

test('spring forward: a nonexistent local time fires at the next valid time, once (New York and Berlin)', async () => {
  assert.deepEqual(await fired('2026-03-07T00:00:00Z', '30 2 * * *', 'America/New_York', 3), ['2026-03-07T07:30:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z']);
  assert.deepEqual(await fired('2026-03-28T12:00:00Z', '30 2 * * *', 'Europe/Berlin', 2), ['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
});

test('fall back: a repeated local hour fires once (New York hourly, Berlin daily)', async () => {
  assert.deepEqual(await fired('2026-11-01T04:30:00Z', '0 * * * *', 'America/New_York', 2), ['2026-11-01T05:00:00.000Z', '2026-11-01T07:00:00.000Z']);
  assert.deepEqual(await fired('2026-10-24T12:00:00Z', '30 2 * * *', 'Europe/Berlin', 2), ['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
});

test('downtime: skip records one missed run (no message), fireOnce posts once; both count the windows and resume on time', () =>
  withEnv('2026-01-01T00:10:00Z', async (e) => {
    const skip = await e.alice.schedules.create({ target: e.target, content: 'hourly skip', cron: '0 * * * *' });
    const once = await e.alice.schedules.create({ target: e.target, content: 'hourly once', cron: '0 * * * *', missedPolicy: 'fireOnce' });
    const shot = await e.alice.schedules.create({ target: e.target, content: 'one-shot skip', at: '2026-01-01T03:00:00Z' });
    await e.tickAt(Z('2026-01-01T01:00:00Z'));
    await e.restart(Z('2026-01-01T05:30:00Z') - e.clock.now()); // down over 02:00, 03:00, 04:00 and 05:00
    await e.tickAt(e.clock.now());
    const [s1, s2] = await runsOf(e.alice, skip.id);
    assert.deepEqual([s1!.status, s2!.status, s2!.scheduledFor, s2!.occurrences, s2!.messageId], ['sent', 'missed', '2026-01-01T02:00:00.000Z', 4, null]);
    assert.equal(s2!.attemptedAt, s2!.createdAt, 'an unattempted run carries its record time as attemptedAt');
    const [o1, o2] = await runsOf(e.alice, once.id);
    assert.deepEqual([o1!.status, o2!.status, o2!.scheduledFor, o2!.occurrences], ['sent', 'sent', '2026-01-01T02:00:00.000Z', 4]);
    assert.equal((await posted(e.alice, e.target, 'hourly skip')).length, 1, 'skip: only the on-time window posted');
    assert.equal((await posted(e.alice, e.target, 'hourly once')).length, 2, 'fireOnce: one late message for all missed windows');
    assert.deepEqual((await runsOf(e.alice, shot.id)).map((r) => [r.status, r.occurrences]), [['missed', 1]]);
    assert.equal((await posted(e.alice, e.target, 'one-shot skip')).length, 0);
    for (const s of [skip, once]) assert.equal((await e.alice.schedules.get({ scheduleId: s.id })).nextRunAt, '2026-01-01T06:00:00.000Z');
    await e.tickAt(Z('2026-01-01T06:00:00Z'));
    assert.deepEqual((await runsOf(e.alice, skip.id)).map((r) => r.status), ['sent', 'missed', 'sent']);
  }));

test('two schedulers on one database (another server process) fire every window exactly once', () =>
  withEnv('2026-02-01T00:00:00Z', async (e) => {
    const other = await openStore(e.t.db, { schema: SCHEMA });
    try {
      const rival = (await createDomains(DOMAINS, other, e.clock)).loops[0] as Scheduler;
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push((await e.alice.schedules.create({ target: e.target, content: `race ${i}`, cron: '*/5 * * * *' })).id);
      for (let w = 1; w <= 3; w++) {
        const due = Z('2026-02-01T00:00:00Z') + w * 300_000;
        e.clock.advance(due + 500 - e.clock.now());
        const [a, b] = await Promise.all([rival.tick(), e.t.server.idle!().then(() => 0)]);
        await e.tickAt(e.clock.now());
        assert.ok(a + b <= ids.length);
        for (const [i, id] of ids.entries()) {
          assert.deepEqual((await runsOf(e.alice, id)).map((r) => r.scheduledFor), Array.from({ length: w }, (_, k) => new Date(Z('2026-02-01T00:00:00Z') + (k + 1) * 300_000).toISOString()), `schedule ${i}, window ${w}`);
        }
      }
      for (let i = 0; i < 8; i++) assert.equal((await posted(e.alice, e.target, `race ${i}`)).length, 3);
      assert.equal(await rival.tick(), 0, 'nothing left due');
    } finally {
      await other.close();
    }
  }));

test(`one tick fires at most ${BATCH} schedules; the rest fire at the next tick, on time`, () =>
  withEnv('2026-04-01T00:00:00Z', async (e) => {
    const carol = e.t.client.as((await e.t.owner.members.createAgent({ name: 'carol' })).credential);
    for (let i = 0; i < BATCH + 10; i++) await (i % 2 ? e.alice : carol).schedules.create({ target: e.target, content: `bulk ${i}`, at: '2026-04-01T00:10:00Z' });
    const runs = async () => Number((await e.t.querySql<{ n: number }>("SELECT COUNT(*) AS n FROM schedule_runs WHERE status = 'sent'"))[0]!.n);
    e.clock.advance(Z('2026-04-01T00:10:00Z') - e.clock.now());
    await e.t.server.idle!();
    e.clock.advance(TICK_MS);
    await e.t.server.idle!();
    assert.equal(await runs(), BATCH);
    e.clock.advance(TICK_MS);
    await e.t.server.idle!();
    assert.equal(await runs(), BATCH + 10);
  }));

test('a window whose creator may no longer read the target is recorded skipped with the reason, and nothing is posted', () =>
  withEnv('2026-05-01T00:00:00Z', async (e) => {
    await e.t.owner.channels.create({ id: 'ops' });
    const member = (await e.t.querySql<{ id: string }>("SELECT id FROM members WHERE name = 'alice'"))[0]!.id;
    await e.t.owner.channels.addMember({ channelId: 'ops', memberId: member });
    const s = await e.alice.schedules.create({ target: 'channel:ops', content: 'to ops', at: '2026-05-01T00:10:00Z' });
    await e.t.runSql('DELETE FROM channel_members WHERE channel_id = ? AND member_id = ?', ['ops', member]);
    await e.tickAt(Z('2026-05-01T00:10:00Z'));
    const [run] = await runsOf(e.alice, s.id);
    assert.deepEqual([run!.status, run!.messageId], ['skipped', null]);
    assert.match(run!.error!, /may no longer read it/);
    assert.equal((await posted(e.t.owner, 'channel:ops', 'to ops')).length, 0);
  }));

test('a window whose creator is no longer a member is recorded skipped with the reason, even on a task (which needs no seat)', () =>
  withEnv('2026-05-01T00:00:00Z', async (e) => {
    const s = await e.alice.schedules.create({ target: e.target, content: 'still here', cron: '0 * * * *' });
    // Removed by a writer that did not stop the schedule (another process, or a removal from before removal stopped them).
    await e.t.runSql("UPDATE members SET removed_at = ? WHERE name = 'alice'", [e.clock.now()]);
    await e.tickAt(Z('2026-05-01T01:00:00Z'));
    const [run, ...rest] = (await e.t.owner.schedules.runs({ scheduleId: s.id, limit: 100 })).runs;
    assert.deepEqual(rest, []);
    assert.deepEqual([run!.status, run!.messageId, run!.error], ['skipped', null, 'its creator is no longer a workspace member']);
    assert.equal((await posted(e.t.owner, e.target, 'still here')).length, 0);
  }));

test(`a schedule keeps its newest ${RUNS_KEPT} runs: recording one more prunes the oldest, and the schedule still fires on time`, () =>
  withEnv('2026-03-01T00:00:00Z', async (e) => {
    const s = await e.alice.schedules.create({ target: e.target, content: 'hourly', cron: '0 * * * *' });
    // RUNS_KEPT earlier windows, recorded directly (one per hour back from midnight), in one statement (runSql opens a store per call).
    const old = Array.from({ length: RUNS_KEPT }, (_, k) => RUNS_KEPT - k);
    const values = old.flatMap((i) => {
      const at = Z('2026-03-01T00:00:00Z') - i * 3_600_000;
      return [`run_old${String(i).padStart(4, '0')}`, s.id, at, 'sent', 1, at, at];
    });
    const rows = old.map(() => '(?, ?, ?, ?, ?, NULL, NULL, ?, ?)').join(', ');
    assert.equal(await e.t.runSql(`INSERT INTO schedule_runs (id, schedule_id, scheduled_for, status, occurrences, message_id, error, attempted_at, created_at) VALUES ${rows}`, values), RUNS_KEPT);
    await e.tickAt(Z('2026-03-01T01:00:00Z'));
    await e.tickAt(Z('2026-03-01T02:00:00Z'));
    const n = (await e.t.querySql<{ n: number }>('SELECT COUNT(*) AS n FROM schedule_runs WHERE schedule_id = ?', [s.id]))[0]?.n;
    assert.equal(Number(n), RUNS_KEPT);
    const ids = (await e.t.querySql<{ id: string }>('SELECT id FROM schedule_runs WHERE schedule_id = ?', [s.id])).map((r) => r.id);
    assert.ok(!ids.includes(`run_old${String(RUNS_KEPT).padStart(4, '0')}`) && !ids.includes(`run_old${String(RUNS_KEPT - 1).padStart(4, '0')}`), 'the two oldest are pruned');
    assert.ok(ids.includes(`run_old${String(RUNS_KEPT - 2).padStart(4, '0')}`), 'the third oldest is kept');
    const newest = (await e.alice.schedules.runs({ scheduleId: s.id, limit: 2 })).runs.map((r) => [r.scheduledFor, r.status]);
    assert.deepEqual(newest, [['2026-03-01T02:00:00.000Z', 'sent'], ['2026-03-01T01:00:00.000Z', 'sent']]);
    assert.equal((await posted(e.alice, e.target, 'hourly')).length, 2);
  }));
