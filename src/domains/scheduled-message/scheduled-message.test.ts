// Tests the scheduled-message domain on the real server (SQLite, or PostgreSQL via the suites runner): create with at or
// cron (bounds on how far ahead and how often), who sees what, who changes what (only the creator changes or enables;
// the owner's disable and delete are logged on the runs), update/enable/disable/delete, replays, and keyset walks of
// list (createdAt DESC, id DESC) and runs (COALESCE(attemptedAt, createdAt) DESC, id DESC) with ties.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ServerApi } from '../../server-client/api.js';
import { FakeClock } from '../../shared/clock.js';
import { startTestServer, type TestServer } from '../test-server.js';
import { TEST_ADMIN_TOKEN } from '../test-server.js';
import type { RunPage, ScheduleDto } from './contract.js';

const clock = new FakeClock(Date.UTC(2026, 0, 1, 12));
let t: TestServer;
let alice: ServerApi;
let bob: ServerApi;
let taskTarget: string;
const inMin = (m: number) => new Date(clock.now() + m * 60_000).toISOString();

before(async () => {
  t = await startTestServer({ clock });
  alice = t.client.as((await t.owner.members.createAgent({ name: 'alice' })).credential);
  bob = t.client.as((await t.owner.members.createAgent({ name: 'bob' })).credential);
  taskTarget = `task:${(await alice.tasks.create({ title: 'Release' })).id}`;
});
after(async () => t.stop());

const code = (c: string) => (e: unknown) => (e as { code?: string }).code === c;
const count = async () => (await t.querySql<{ n: number }>('SELECT COUNT(*) AS n FROM scheduled_messages'))[0]!.n;

test('create: a one-shot at and a cron in a zone; nextRunAt is the first fire; defaults skip and enabled', async () => {
  const once = await alice.schedules.create({ target: taskTarget, content: 'ship it', at: '2026-01-01T14:00:00+01:00' });
  assert.deepEqual([once.at, once.cron, once.timeZone, once.nextRunAt, once.missedPolicy, once.enabled, once.revision], ['2026-01-01T13:00:00.000Z', null, null, '2026-01-01T13:00:00.000Z', 'skip', true, 1]);
  const cron = await alice.schedules.create({ target: taskTarget, content: 'standup', cron: ' 0   9 * * 1-5 ', timeZone: 'Asia/Tokyo', missedPolicy: 'fireOnce' });
  assert.deepEqual([cron.cron, cron.timeZone, cron.nextRunAt, cron.missedPolicy], ['0 9 * * 1-5', 'Asia/Tokyo', '2026-01-02T00:00:00.000Z', 'fireOnce']);
  assert.equal((await alice.schedules.create({ target: taskTarget, content: 'utc', cron: '0 0 * * *' })).timeZone, 'UTC');
  const owner = await t.owner.schedules.create({ target: 'channel:general', content: 'hello', at: inMin(10) });
  assert.equal(owner.target, 'channel:general');
});

test('bad input is a typed failure and stores nothing: timing, bounds, targets', async () => {
  const n = await count();
  const bad: [Record<string, unknown>, string][] = [
    [{ target: taskTarget, content: 'x' }, 'validation_failed'],
    [{ target: taskTarget, content: 'x', at: inMin(5), cron: '0 9 * * *' }, 'validation_failed'],
    [{ target: taskTarget, content: 'x', at: inMin(5), timeZone: 'UTC' }, 'validation_failed'],
    [{ target: taskTarget, content: 'x', at: '2026-01-01T13:00:00' }, 'validation_failed'],
    [{ target: taskTarget, content: 'x', at: 'tomorrow' }, 'validation_failed'],
    [{ target: taskTarget, content: 'x', at: inMin(-1) }, 'validation_failed'],
    [{ target: taskTarget, content: 'x', at: inMin(367 * 24 * 60) }, 'validation_failed'],
    [{ target: taskTarget, content: 'x', cron: '* * * * *' }, 'validation_failed'],
    [{ target: taskTarget, content: 'x', cron: '0,3 * * * *' }, 'validation_failed'],
    [{ target: taskTarget, content: 'x', cron: '58,1 * * * *' }, 'validation_failed'],
    [{ target: taskTarget, content: 'x', cron: '0 0 30 2 *' }, 'validation_failed'],
    [{ target: taskTarget, content: 'x', cron: '61 * * * *' }, 'validation_failed'],
    [{ target: taskTarget, content: 'x', cron: '0 9 * * *', timeZone: 'Mars/Olympus' }, 'validation_failed'],
    [{ target: taskTarget, content: 'x', cron: '0 9 * * *', missedPolicy: 'later' }, 'validation_failed'],
    [{ target: taskTarget, content: '', at: inMin(5) }, 'validation_failed'],
    [{ target: taskTarget, content: '   ', at: inMin(5) }, 'validation_failed'],
    [{ target: taskTarget, content: 'c'.repeat(8001), at: inMin(5) }, 'validation_failed'],
    [{ target: taskTarget, content: '\u0001'.repeat(2000), at: inMin(5) }, 'validation_failed'],
    [{ target: 'general', content: 'x', at: inMin(5) }, 'validation_failed'],
    [{ target: 'channel:general', content: 'x', at: inMin(5) }, 'not_found'],
    [{ target: 'task:tsk_missing', content: 'x', at: inMin(5) }, 'not_found'],
  ];
  for (const [input, c] of bad) await assert.rejects(alice.schedules.create(input as never), code(c), JSON.stringify(input).slice(0, 120));
  assert.equal(await count(), n);
  assert.equal((await alice.schedules.create({ target: taskTarget, content: 'c'.repeat(8000), cron: '0,5,10 * * * *' })).content.length, 8000, 'at the bounds: 8000 characters, minutes 5 apart');
});

test('only the creator or the owner sees a schedule; to others it does not exist, and denied calls change nothing', async () => {
  const s = await alice.schedules.create({ target: taskTarget, content: 'private', at: inMin(30) });
  await assert.rejects(bob.schedules.get({ scheduleId: s.id }), code('not_found'));
  await assert.rejects(bob.schedules.update({ scheduleId: s.id, content: 'mine now' }), code('not_found'));
  await assert.rejects(bob.schedules.disable({ scheduleId: s.id }), code('not_found'));
  await assert.rejects(bob.schedules.delete({ scheduleId: s.id }), code('not_found'));
  await assert.rejects(bob.schedules.runs({ scheduleId: s.id }), code('not_found'));
  assert.ok(!(await bob.schedules.list({ limit: 100 })).schedules.some((x) => x.id === s.id));
  assert.deepEqual(await alice.schedules.get({ scheduleId: s.id }), s);
  assert.deepEqual(await t.owner.schedules.get({ scheduleId: s.id }), s, 'the owner reads every schedule');
  assert.ok((await t.owner.schedules.list({ limit: 100 })).schedules.some((x) => x.id === s.id));
});

test('only its creator changes or enables a schedule (it posts as them); the owner may disable or delete it, and its runs name who (failed before: the owner rewrote a member\'s schedule and it fired as them)', async () => {
  const carol = t.client.as((await t.owner.members.createAgent({ name: 'dana' })).credential);
  const s = await carol.schedules.create({ target: taskTarget, content: 'carol says hi', cron: '0 * * * *' });
  const runs = async (api: ServerApi) => (await api.schedules.runs({ scheduleId: s.id, limit: 100 })).runs;
  const changes: Record<string, unknown>[] = [{ content: 'carol says something else' }, { target: 'channel:general' }, { at: inMin(20) }, { cron: '30 * * * *' }, { timeZone: 'Asia/Tokyo' }, { missedPolicy: 'fireOnce' }];
  for (const c of changes) await assert.rejects(t.owner.schedules.update({ scheduleId: s.id, ...c }), code('denied'), JSON.stringify(c));
  assert.deepEqual(await carol.schedules.get({ scheduleId: s.id }), s, 'nothing changed');
  const off = await t.owner.schedules.disable({ scheduleId: s.id });
  assert.deepEqual([off.enabled, off.nextRunAt], [false, null]);
  const [logged, ...more] = await runs(carol);
  assert.deepEqual(more, []);
  assert.deepEqual([logged!.status, logged!.by, logged!.error, logged!.messageId], ['disabled', t.ownerId, 'disabled by the workspace owner', null]);
  await assert.rejects(t.owner.schedules.enable({ scheduleId: s.id }), code('denied'), 'enabling would post as carol');
  assert.equal((await carol.schedules.get({ scheduleId: s.id })).enabled, false);
  await carol.schedules.enable({ scheduleId: s.id });
  await carol.schedules.disable({ scheduleId: s.id });
  await carol.schedules.enable({ scheduleId: s.id });
  assert.equal((await runs(carol)).length, 1, 'the creator\'s own disable is not logged');
  assert.deepEqual(await t.owner.schedules.delete({ scheduleId: s.id }), { scheduleId: s.id, deleted: true });
  await assert.rejects(t.owner.schedules.get({ scheduleId: s.id }), code('not_found'));
  assert.ok(!(await t.owner.schedules.list({ limit: 100 })).schedules.some((x) => x.id === s.id));
  const kept = await carol.schedules.get({ scheduleId: s.id });
  assert.deepEqual([kept.enabled, kept.nextRunAt, kept.content], [false, null, 'carol says hi']);
  assert.ok((await carol.schedules.list({ limit: 100 })).schedules.some((x) => x.id === s.id), 'the creator still sees it');
  const deleted = (await runs(carol)).filter((r) => r.status === 'deleted');
  assert.deepEqual(deleted.map((r) => [r.by, r.error]), [[t.ownerId, 'deleted by the workspace owner']]);
  await assert.rejects(carol.schedules.enable({ scheduleId: s.id }), code('conflict'), 'an owner-deleted schedule never fires again');
  await assert.rejects(carol.schedules.update({ scheduleId: s.id, content: 'back' }), code('conflict'));
  await carol.schedules.delete({ scheduleId: s.id });
  await assert.rejects(carol.schedules.get({ scheduleId: s.id }), code('not_found'));
  assert.deepEqual(await t.querySql('SELECT id FROM schedule_runs WHERE schedule_id = ?', [s.id]), []);
});

test('update switches timing and recomputes nextRunAt; enable/disable are idempotent; delete removes it; keys replay', async () => {
  const s = await alice.schedules.create({ target: taskTarget, content: 'v1', at: inMin(60) });
  const u = await alice.schedules.update({ scheduleId: s.id, content: 'v2', cron: '30 8 * * *', timeZone: 'Europe/Berlin' });
  assert.deepEqual([u.content, u.at, u.cron, u.timeZone, u.nextRunAt, u.revision], ['v2', null, '30 8 * * *', 'Europe/Berlin', '2026-01-02T07:30:00.000Z', 2]);
  const z = await alice.schedules.update({ scheduleId: s.id, timeZone: 'America/New_York' });
  assert.deepEqual([z.cron, z.nextRunAt], ['30 8 * * *', '2026-01-01T13:30:00.000Z'], 'a lone timeZone re-zones the cron');
  await assert.rejects(alice.schedules.update({ scheduleId: s.id }), code('validation_failed'));
  await assert.rejects(alice.schedules.update({ scheduleId: s.id, cron: '* * * * *' }), code('validation_failed'));
  await assert.rejects(alice.schedules.update({ scheduleId: s.id, at: inMin(5), cron: '0 9 * * *' }), code('validation_failed'));
  assert.deepEqual(await alice.schedules.get({ scheduleId: s.id }), z, 'failed updates change nothing');
  const off = await alice.schedules.disable({ scheduleId: s.id });
  assert.deepEqual([off.enabled, off.nextRunAt, off.revision], [false, null, 4]);
  assert.deepEqual(await alice.schedules.disable({ scheduleId: s.id }), off, 'disable is idempotent');
  const back = await alice.schedules.update({ scheduleId: s.id, at: inMin(90) });
  assert.deepEqual([back.at, back.cron, back.timeZone, back.nextRunAt, back.enabled], [inMin(90), null, null, null, false], 'a disabled schedule has no next run');
  const on = await alice.schedules.enable({ scheduleId: s.id });
  assert.deepEqual([on.enabled, on.nextRunAt], [true, inMin(90)]);
  assert.deepEqual(await alice.schedules.enable({ scheduleId: s.id }), on, 'enable is idempotent');
  const k = await alice.schedules.create({ target: taskTarget, content: 'keyed', at: inMin(5) }, { idempotencyKey: 'sch-k1' });
  assert.deepEqual(await alice.schedules.create({ target: taskTarget, content: 'keyed', at: inMin(5) }, { idempotencyKey: 'sch-k1' }), k);
  await assert.rejects(alice.schedules.create({ target: taskTarget, content: 'other', at: inMin(5) }, { idempotencyKey: 'sch-k1' }), code('idempotency_conflict'));
  assert.deepEqual(await alice.schedules.delete({ scheduleId: s.id }), { scheduleId: s.id, deleted: true });
  await assert.rejects(alice.schedules.get({ scheduleId: s.id }), code('not_found'));
  await assert.rejects(alice.schedules.delete({ scheduleId: s.id }), code('not_found'));
  await assert.rejects(alice.schedules.list({ limit: 101 }), code('validation_failed'));
});

test('a member holds at most 100 enabled schedules', async () => {
  const carol = t.client.as((await t.owner.members.createAgent({ name: 'carol' })).credential);
  const target = `task:${(await carol.tasks.create({ title: 'cap' })).id}`;
  const made: ScheduleDto[] = [];
  for (let i = 0; i < 100; i++) made.push(await carol.schedules.create({ target, content: `n${i}`, at: inMin(100 + i) }));
  await assert.rejects(carol.schedules.create({ target, content: 'one more', at: inMin(5) }), code('conflict'));
  await carol.schedules.disable({ scheduleId: made[0]!.id });
  await carol.schedules.create({ target, content: 'fits again', at: inMin(5) });
  await assert.rejects(carol.schedules.enable({ scheduleId: made[0]!.id }), code('conflict'));
});

test('a member holds at most 1000 schedules in all, disabled ones included: one more is a conflict that stores nothing; a delete makes room (failed before: disabling let a member store schedules without bound)', async () => {
  const dave = await t.owner.members.createAgent({ name: 'dave' });
  const api = t.client.as(dave.credential);
  const target = `task:${(await api.tasks.create({ title: 'many' })).id}`;
  const first = await api.schedules.create({ target, content: 'first', at: inMin(50) });
  await api.schedules.disable({ scheduleId: first.id });
  await t.runSql(
    `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 999) INSERT INTO scheduled_messages (id, target, content, at, cron, time_zone, missed_policy, enabled, next_run_at, created_by, revision, created_at, updated_at) SELECT 'sch_fill' || i, ?, 'old', 1, NULL, NULL, 'skip', 0, NULL, ?, 1, 1, 1 FROM s`,
    [target, dave.agent.id],
  );
  const before = await count();
  await assert.rejects(api.schedules.create({ target, content: 'one more', at: inMin(5) }), (e: unknown) => code('conflict')(e) && /at most 1000 schedules per member/.test((e as Error).message));
  assert.equal(await count(), before);
  await api.schedules.delete({ scheduleId: first.id });
  assert.equal((await api.schedules.create({ target, content: 'fits again', at: inMin(5) })).enabled, true);
  await alice.schedules.create({ target: taskTarget, content: 'alice is not limited by dave', at: inMin(6) });
});

test('list walks equal the full scan in createdAt DESC, id DESC with ties; the enabled filter is bound into the cursor', async () => {
  const all: ScheduleDto[] = [];
  let cursor: string | undefined;
  do {
    const p = await alice.schedules.list({ limit: 100, ...(cursor ? { cursor } : {}) });
    all.push(...p.schedules);
    cursor = p.nextCursor;
  } while (cursor);
  const cmp = (x: string, y: string) => Buffer.compare(Buffer.from(y), Buffer.from(x));
  assert.deepEqual(all.map((x) => x.id), [...all].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || cmp(a.id, b.id)).map((x) => x.id));
  assert.ok(new Set(all.map((x) => x.createdAt)).size < all.length, 'the data has createdAt ties (the clock stands still)');
  for (const enabled of [undefined, true, false]) {
    const want = all.filter((x) => enabled === undefined || x.enabled === enabled).map((x) => x.id);
    const got: string[] = [];
    let c: string | undefined;
    do {
      const p = await alice.schedules.list({ limit: 2, ...(c ? { cursor: c } : {}), ...(enabled !== undefined ? { enabled } : {}) });
      got.push(...p.schedules.map((x) => x.id));
      assert.equal(p.hasMore, p.nextCursor !== undefined);
      c = p.nextCursor;
    } while (c);
    assert.deepEqual(got, want);
  }
  const p = await alice.schedules.list({ limit: 1, enabled: true });
  await assert.rejects(alice.schedules.list({ limit: 1, enabled: false, cursor: p.nextCursor! }), code('validation_failed'), 'the cursor is bound to its filter');
  await assert.rejects(bob.schedules.list({ limit: 1, enabled: true, cursor: p.nextCursor! }), code('validation_failed'), 'and to its viewer');
});

test('runs walks equal the full scan in COALESCE(attemptedAt, createdAt) DESC, id DESC; attemptedAt carries the effective time', async () => {
  const s = await alice.schedules.create({ target: taskTarget, content: 'history', cron: '0 * * * *' });
  const s2 = await alice.schedules.create({ target: taskTarget, content: 'other', cron: '0 * * * *' });
  // Rows as another writer would leave them: missed rows are unattempted (attemptedAt null), with ties on the effective time.
  for (let i = 0; i < 30; i++) {
    const attempted = i % 3 === 0 ? null : 1000 * (i % 7);
    const created = 1000 * ((i * 5) % 7);
    await t.runSql('INSERT INTO schedule_runs (id, schedule_id, scheduled_for, status, occurrences, message_id, error, attempted_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [`run_${String(i).padStart(3, '0')}`, i % 10 === 9 ? s2.id : s.id, i * 60_000, attempted === null ? 'missed' : 'sent', 1, null, null, attempted, created]);
  }
  const rows = await t.querySql<{ id: string; eff: number }>('SELECT id, COALESCE(attempted_at, created_at) AS eff FROM schedule_runs WHERE schedule_id = ?', [s.id]);
  const cmp = (x: string, y: string) => Buffer.compare(Buffer.from(y), Buffer.from(x));
  const want = rows.sort((a, b) => Number(b.eff) - Number(a.eff) || cmp(a.id, b.id)).map((r) => ({ id: r.id, attemptedAt: new Date(Number(r.eff)).toISOString() }));
  assert.ok(new Set(want.map((x) => x.attemptedAt)).size < want.length, 'the data has ties');
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 4 }), async (sizes) => {
      const got: { id: string; attemptedAt: string }[] = [];
      let c: string | undefined;
      for (let i = 0; ; i++) {
        const p: RunPage = await alice.schedules.runs({ scheduleId: s.id, limit: sizes[i % sizes.length]!, ...(c ? { cursor: c } : {}) });
        got.push(...p.runs.map((r) => ({ id: r.id, attemptedAt: r.attemptedAt })));
        if (!p.hasMore) break;
        c = p.nextCursor;
      }
      assert.deepEqual(got, want);
    }),
    { numRuns: 12 },
  );
  const p = await alice.schedules.runs({ scheduleId: s.id, limit: 2 });
  await assert.rejects(alice.schedules.runs({ scheduleId: s2.id, limit: 2, cursor: p.nextCursor! }), code('validation_failed'), 'the cursor is bound to its schedule');
  const empty = await alice.schedules.runs({ scheduleId: (await alice.schedules.create({ target: taskTarget, content: 'new', at: inMin(5) })).id });
  assert.deepEqual(empty, { runs: [], hasMore: false });
});

test('raw bodies on every server route: malformed, duplicate keys, unknown fields, oversized, wrong or admin token — typed, and nothing changed', async () => {
  const s = await alice.schedules.create({ target: taskTarget, content: 'raw', at: inMin(45) });
  const n = await count();
  const routes: [string, string][] = [['POST', '/v1/scheduled-messages'], ['PATCH', `/v1/scheduled-messages/${s.id}`], ...['enable', 'disable', 'delete'].map((x): [string, string] => ['POST', `/v1/scheduled-messages/${s.id}/${x}`])];
  const send = (method: string, path: string, body: string, token = t.ownerCredential) => fetch(`${t.server.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body }).then(async (r) => ({ status: r.status, code: ((await r.json()) as { error?: { code?: string } }).error?.code }));
  for (const [method, path] of routes) {
    const create = method === 'POST' && !path.includes(s.id);
    const ok = JSON.stringify(create ? { target: taskTarget, content: 'x', at: inMin(50) } : path.endsWith(s.id) ? { content: 'x' } : {});
    assert.deepEqual(await send(method, path, '{"content":'), { status: 400, code: 'invalid_input' }, path);
    assert.deepEqual(await send(method, path, '{"content":"a","\\u0063ontent":"b"}'), { status: 400, code: 'invalid_input' }, path);
    assert.deepEqual(await send(method, path, JSON.stringify({ ...JSON.parse(ok), extra: 1 })), { status: 422, code: 'validation_failed' }, path);
    assert.deepEqual(await send(method, path, JSON.stringify({ content: 'c'.repeat(2 * 1024 * 1024) })), { status: 413, code: 'payload_too_large' }, path);
    assert.equal((await send(method, path, ok, 'atm_wrong')).status, 403, path);
    assert.equal((await send(method, path, ok, TEST_ADMIN_TOKEN)).status, 403, path);
  }
  for (const q of ['?enabled=yes', '?limit=0', '?limit=abc', '?cursor=x', '?other=1']) assert.equal((await fetch(`${t.server.url}/v1/scheduled-messages${q}`, { headers: { authorization: `Bearer ${t.ownerCredential}` } })).status, 422, q);
  assert.equal(await count(), n);
  assert.deepEqual(await alice.schedules.get({ scheduleId: s.id }), s);
});
