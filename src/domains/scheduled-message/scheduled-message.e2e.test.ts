// End-to-end: every `scheduled-message` action, validation failure and denial through the real `agentteam exec` inside
// daemon-launched runtimes; raw bad bodies and credentials on every Exec route change nothing; a schedule really fires;
// every follow-up call works from what a list page shows (its ids, a one-shot's `at`, a cron's `when`, page-relative `next`).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cliJson, runExecSteps, TestDaemon } from '../../../test/harness.js';

const d = new TestDaemon();
const ACTIONS = ['create', 'get', 'list', 'update', 'enable', 'disable', 'delete', 'runs'];
const fireContent = `scheduled hello ${Math.random().toString(36).slice(2)}`;
let a: Record<string, any>;
let b: Record<string, any>;
let raw: Record<string, any>;
let after2: Record<string, any>;
let shown: any[];
let c: Record<string, any>;
let bobId: string;

async function runRaw(agent: string, steps: unknown[]): Promise<Record<string, any>> {
  const file = resolve(d.home, `raw-${agent}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(steps));
  const r = await d.run(['runtime', 'start', '--agent', agent, '--', process.execPath, resolve(import.meta.dirname, '../../../test/fixtures/exec-raw.mjs'), file], { timeoutMs: 180_000 });
  if (r.code !== 0) throw new Error(`runtime failed: ${r.stderr}`);
  return JSON.parse(r.stdout.split('\n').find((l) => l.startsWith('RESULT'))!.slice(6));
}

before(async () => {
  await d.start();
  await d.addAgent('alice');
  bobId = (await d.addAgent('bob')).id;
  // The one-shot's instant is taken inside the runtime (3 s after its request is sent), so a slow start cannot make it past.
  const once = await runRaw('alice', [{ name: 'once', path: 'scheduled-message/create', body: JSON.stringify({ target: 'channel:general', content: fireContent, at: '@NOW+3000' }) }]);
  // Every other instant is a day ahead: no step depends on how fast the machine is.
  const at = new Date(Date.now() + 86_400_000).toISOString();
  a = await runExecSteps(d, 'alice', [
    { name: 'keyed', run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: 'keyed', at, idempotencyKey: 'sch-e2e-1' } },
    { name: 'replay', run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: 'keyed', at, idempotencyKey: 'sch-e2e-1' } },
    { name: 'keyReuse', run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: 'other', at, idempotencyKey: 'sch-e2e-1' } },
    { name: 'cron', run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: 'standup', cron: '55 8 * * 1-5', timeZone: 'Europe/Berlin' } },
    { name: 'get', run: ['scheduled-message', 'get'], input: { scheduleId: '${cron.data.schedule.id}' } },
    { name: 'list', run: ['scheduled-message', 'list'], input: { limit: 1 } },
    { name: 'list2', run: ['scheduled-message', 'list'], input: { limit: 1, cursor: '${list.data.nextCursor}' } },
    { name: 'update', run: ['scheduled-message', 'update'], input: { scheduleId: '${cron.data.schedule.id}', content: 'standup now', missedPolicy: 'fireOnce' } },
    { name: 'moveAt', run: ['scheduled-message', 'update'], input: { scheduleId: '${keyed.data.schedule.id}', at: '${keyed.data.schedule.at}' } },
    { name: 'disable', run: ['scheduled-message', 'disable'], input: { scheduleId: '${cron.data.schedule.id}' } },
    { name: 'disableAgain', run: ['scheduled-message', 'disable'], input: { scheduleId: '${cron.data.schedule.id}' } },
    { name: 'enabledOnly', run: ['scheduled-message', 'list'], input: { filters: { enabled: true } } },
    // Enabled again by the id a list page showed.
    { name: 'disabledOnly', run: ['scheduled-message', 'list'], input: { filters: { enabled: false } } },
    { name: 'enable', run: ['scheduled-message', 'enable'], input: { scheduleId: '${disabledOnly.data.schedules.0.id}' } },
    { name: 'runs', run: ['scheduled-message', 'runs'], input: { scheduleId: '${cron.data.schedule.id}' } },
    { name: 'delete', run: ['scheduled-message', 'delete'], input: { scheduleId: '${cron.data.schedule.id}' } },
    { name: 'deleted', run: ['scheduled-message', 'get'], input: { scheduleId: '${cron.data.schedule.id}' } },
    { name: 'tooOften', run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: 'x', cron: '* * * * *' } },
    { name: 'both', run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: 'x', cron: '0 9 * * *', at } },
    { name: 'neither', run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: 'x' } },
    { name: 'past', run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: 'x', at: '2020-01-01T00:00:00Z' } },
    { name: 'badZone', run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: 'x', cron: '0 9 * * *', timeZone: 'Mars/Olympus' } },
    { name: 'unknownField', run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: 'x', at, repeat: true } },
    { name: 'longContent', run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: 'c'.repeat(8001), at } },
    { name: 'badPolicy', run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: 'x', at, missedPolicy: 'later' } },
    { name: 'badFilter', run: ['scheduled-message', 'list'], input: { filters: { enabled: 'yes' } } },
    { name: 'badLimit', run: ['scheduled-message', 'runs'], input: { scheduleId: '${keyed.data.schedule.id}', limit: 101 } },
    { name: 'notMine', run: ['scheduled-message', 'create'], input: { target: 'dm:dm_nope', content: 'x', at } },
    { name: 'missing', run: ['scheduled-message', 'get'], input: { scheduleId: 'sch_missing' } },
    { name: 'examples', examples: 'scheduled-message' },
    { name: 'listBefore', run: ['scheduled-message', 'list'], input: { limit: 100 } },
  ]);
  a.once = { code: once.once.status === 200 ? 0 : 1, out: once.once.body };
  const id = a.once.out.data.schedule.id;
  b = await runExecSteps(d, 'bob', [
    { name: 'get', run: ['scheduled-message', 'get'], input: { scheduleId: id } },
    { name: 'update', run: ['scheduled-message', 'update'], input: { scheduleId: id, content: 'hijacked' } },
    { name: 'disable', run: ['scheduled-message', 'disable'], input: { scheduleId: id } },
    { name: 'delete', run: ['scheduled-message', 'delete'], input: { scheduleId: id } },
    { name: 'runs', run: ['scheduled-message', 'runs'], input: { scheduleId: id } },
    { name: 'list', run: ['scheduled-message', 'list'], input: {} },
  ]);
  const bodies: [string, (action: string) => string][] = [
    ['malformed', () => '{"scheduleId":'],
    ['duplicate', (x) => (x === 'create' ? `{"target":"channel:general","content":"a","content":"b","at":"${at}"}` : `{"scheduleId":"${id}","\\u0073cheduleId":"${id}"}`)],
    ['unknown', (x) => (x === 'create' ? `{"target":"channel:general","content":"a","at":"${at}","extra":1}` : `{"scheduleId":"${id}","extra":1}`)],
    ['oversized', (x) => JSON.stringify(x === 'create' ? { target: 'channel:general', content: 'c'.repeat(2 * 1024 * 1024), at } : { scheduleId: id, pad: 'p'.repeat(2 * 1024 * 1024) })],
  ];
  const valid = (x: string) => JSON.stringify(x === 'create' ? { target: 'channel:general', content: 'sneaky', at } : x === 'list' ? {} : x === 'update' ? { scheduleId: id, content: 'sneaky' } : { scheduleId: id });
  raw = await runRaw('alice', ACTIONS.flatMap((x) => [
    ...bodies.map(([k, f]) => ({ name: `${x}.${k}`, path: `scheduled-message/${x}`, body: f(x) })),
    { name: `${x}.noToken`, path: `scheduled-message/${x}`, body: valid(x), token: 'none' },
    { name: `${x}.badToken`, path: `scheduled-message/${x}`, body: valid(x), token: 'bad' },
    { name: `${x}.otherAgent`, path: `scheduled-message/${x}`, body: valid(x), agentId: bobId },
  ]));
  // Two one-shots at noon UTC on one day (the second's `next` is then its time of day alone) and a monthly cron in a
  // zone, two weeks out (it cannot fire during the test); then one list page, whose items alone drive the follow-ups.
  const noon = `${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)}T12:00:00Z`;
  const monthly = `30 7 ${new Date(Date.now() + 15 * 86_400_000).getUTCDate()} * *`;
  after2 = await runExecSteps(d, 'alice', [
    { name: 'get', run: ['scheduled-message', 'get'], input: { scheduleId: id } },
    { name: 'list', run: ['scheduled-message', 'list'], input: { limit: 100 } },
    { name: 'cron', run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: 'shown cron', cron: monthly, timeZone: 'Asia/Tokyo', missedPolicy: 'fireOnce' } },
    { name: 'noon', run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: 'shown noon', at: noon } },
    { name: 'later', run: ['scheduled-message', 'create'], input: { target: 'channel:general', content: 'shown later', at: noon.replace('T12:00', 'T12:30') } },
    { name: 'shown', run: ['scheduled-message', 'list'], input: { limit: 100 } },
  ]);
  shown = after2.shown.out.data.schedules;
  const cronItem = shown.find((x) => x.content === 'shown cron');
  const noonItem = shown.find((x) => x.content === 'shown noon');
  const cut = cronItem.when.lastIndexOf(' ');
  const run = (action: string, input: Record<string, unknown>, name = action) => ({ name, run: ['scheduled-message', action], input });
  c = await runExecSteps(d, 'alice', [
    ...shown.map((x, i) => run('get', { scheduleId: x.id }, `get${i}`)),
    // A cron's `when` split at its last space is the cron and zone update takes; a one-shot's `at` goes back as shown.
    run('update', { scheduleId: cronItem.id, content: 'shown cron moved', cron: cronItem.when.slice(0, cut), timeZone: cronItem.when.slice(cut + 1) }, 'updateCron'),
    run('update', { scheduleId: noonItem.id, at: noonItem.at }, 'updateNoon'),
    run('disable', { scheduleId: cronItem.id }),
    run('enable', { scheduleId: cronItem.id }),
    run('runs', { scheduleId: cronItem.id }),
    run('delete', { scheduleId: noonItem.id }, 'deleteNoon'),
    run('delete', { scheduleId: cronItem.id }, 'deleteCron'),
    run('list', { limit: 100 }),
  ]);
});
after(() => d.dispose());

test('create, replay, get, list, update, disable/enable (idempotent), runs and delete work through agentteam exec', () => {
  const s = a.once.out.data.schedule;
  assert.deepEqual([a.once.code, s.target, s.enabled, s.nextRunAt], [0, 'channel:general', true, s.at]);
  const k = a.keyed.out.data.schedule;
  assert.equal(a.replay.out.data.schedule.id, k.id);
  assert.equal(a.keyReuse.out.error.code, 'idempotency_conflict');
  assert.deepEqual([a.cron.out.data.schedule.cron, a.cron.out.data.schedule.timeZone], ['55 8 * * 1-5', 'Europe/Berlin']);
  assert.deepEqual(a.get.out.data.schedule, a.cron.out.data.schedule);
  assert.deepEqual([a.list.out.data.schedules[0].id, a.list2.out.data.schedules[0].id, a.list2.out.data.hasMore], [a.cron.out.data.schedule.id, k.id, true], 'newest first, one per page');
  assert.deepEqual([a.update.out.data.schedule.content, a.update.out.data.schedule.missedPolicy, a.update.out.data.schedule.revision], ['standup now', 'fireOnce', 2]);
  // The projection: compact time, nulls and createdAt omitted; a shown `at` goes back into update unchanged.
  assert.match(k.at, /^\d{8}T\d{6}Z$/);
  assert.deepEqual(Object.keys(k).sort(), ['at', 'content', 'enabled', 'id', 'missedPolicy', 'nextRunAt', 'revision', 'target', 'updatedAt']);
  assert.deepEqual([a.moveAt.code, a.moveAt.out.data.schedule.at, a.moveAt.out.data.schedule.revision], [0, k.at, 2]);
  assert.deepEqual([a.disable.out.data.schedule.enabled, a.disable.out.data.schedule.nextRunAt], [false, undefined]);
  assert.deepEqual(a.disableAgain.out.data.schedule, a.disable.out.data.schedule);
  assert.deepEqual(a.enabledOnly.out.data.schedules.map((x: any) => x.id), [k.id, s.id]);
  // A list item: no revision/updatedAt (get has them); missedPolicy only when not skip, enabled only when false.
  assert.deepEqual(a.disabledOnly.out.data.schedules, [{ id: a.cron.out.data.schedule.id, target: 'channel:general', content: 'standup now', when: '55 8 * * 1-5 Europe/Berlin', missedPolicy: 'fireOnce', enabled: false }]);
  assert.deepEqual([a.enable.out.data.schedule.id, a.enable.out.data.schedule.enabled], [a.cron.out.data.schedule.id, true]);
  assert.deepEqual(a.runs.out.data, { runs: [], hasMore: false });
  assert.deepEqual(a.delete.out.data, { scheduleId: a.cron.out.data.schedule.id, deleted: true });
  assert.equal(a.deleted.out.error.code, 'not_found');
});

test('every follow-up works from what a list page shows: get, update (a cron from `when`, a one-shot\'s `at`), disable, enable, runs, delete', () => {
  assert.deepEqual(shown.slice(0, 3).map((x) => [x.content, x.next]), [['shown later', after2.later.out.data.schedule.at], ['shown noon', '120000'], ['shown cron', after2.cron.out.data.schedule.nextRunAt]]);
  // Each item read back by its shown id: the same schedule, its `when`/`at` as get has them, and its `next` read with
  // the date of the `next` above it (page-relative) is get's nextRunAt.
  let day = '';
  shown.forEach((x, i) => {
    const g = c[`get${i}`].out.data.schedule;
    assert.deepEqual([g.id, g.target, g.content, g.missedPolicy === 'fireOnce', g.enabled], [x.id, x.target, x.content, x.missedPolicy === 'fireOnce', x.enabled !== false], x.id);
    assert.deepEqual([g.cron === undefined ? undefined : `${g.cron} ${g.timeZone}`, g.at], [x.when, x.at], x.id);
    const next = x.next === undefined ? undefined : x.next.length === 6 ? `${day}T${x.next}Z` : x.next;
    assert.equal(next, g.nextRunAt, x.id);
    if (next !== undefined) day = next.slice(0, 8);
  });
  const cron = after2.cron.out.data.schedule;
  assert.deepEqual([c.updateCron.code, c.updateCron.out.data?.schedule.cron, c.updateCron.out.data?.schedule.timeZone, c.updateCron.out.data?.schedule.content], [0, cron.cron, 'Asia/Tokyo', 'shown cron moved']);
  assert.equal(c.updateCron.out.data.schedule.nextRunAt, cron.nextRunAt, 'the same cron and zone: the same next fire');
  assert.deepEqual([c.updateNoon.code, c.updateNoon.out.data?.schedule.at, c.updateNoon.out.data?.schedule.revision], [0, after2.noon.out.data.schedule.at, 2]);
  assert.deepEqual([c.disable.out.data.schedule.enabled, c.enable.out.data.schedule.enabled], [false, true]);
  assert.deepEqual(c.runs.out.data, { runs: [], hasMore: false });
  assert.deepEqual([c.deleteNoon.out.data, c.deleteCron.out.data], [{ scheduleId: after2.noon.out.data.schedule.id, deleted: true }, { scheduleId: cron.id, deleted: true }]);
  assert.deepEqual(c.list.out.data.schedules.map((x: any) => x.content), shown.map((x) => x.content).filter((x) => x !== 'shown cron' && x !== 'shown noon'));
});

test('every validation failure is typed; another agent sees none of alice\'s schedules and changes nothing', () => {
  for (const k of ['tooOften', 'both', 'neither', 'past', 'badZone', 'unknownField', 'longContent', 'badPolicy', 'badFilter', 'badLimit']) {
    assert.equal(a[k].out.error.code, 'validation_failed', k);
    assert.ok([1, 2].includes(a[k].code), k);
  }
  assert.equal(a.notMine.out.error.code, 'not_found');
  assert.equal(a.missing.out.error.code, 'not_found');
  for (const k of ['get', 'update', 'disable', 'delete', 'runs']) assert.equal(b[k].out.error.code, 'not_found', k);
  assert.deepEqual(b.list.out.data, { schedules: [], hasMore: false });
});

test('raw bodies on every Exec route: malformed, duplicate keys, unknown fields, oversized, no/bad token, another agent\'s binding — typed, and nothing changed', () => {
  for (const x of ACTIONS) {
    for (const [k, status, c] of [['malformed', 400, 'invalid_input'], ['duplicate', 400, 'invalid_input'], ['unknown', 422, 'validation_failed'], ['oversized', 413, 'payload_too_large']] as const) {
      assert.equal(raw[`${x}.${k}`].status, status, `${x}.${k}: ${JSON.stringify(raw[`${x}.${k}`]).slice(0, 200)}`);
      assert.equal(raw[`${x}.${k}`].body.error.code, c, `${x}.${k}`);
    }
    for (const k of ['noToken', 'badToken', 'otherAgent']) assert.equal(raw[`${x}.${k}`].status, 403, `${x}.${k}`);
  }
  const s = after2.get.out.data.schedule;
  assert.deepEqual([s.content, s.enabled, s.revision], [fireContent, true, 1]);
  assert.deepEqual(after2.list.out.data.schedules, a.listBefore.out.data.schedules, 'no schedule was created, changed or deleted');
  assert.ok(after2.list.out.data.schedules.some((x: any) => x.id === s.id));
});

test("each descriptor's canonical help example runs to a typed answer; help pages are short", () => {
  const ex = a.examples.out;
  assert.deepEqual(Object.keys(ex).sort(), [...ACTIONS].sort());
  for (const [k, v] of Object.entries(ex) as [string, any][]) {
    assert.ok(v.code === 0 || ['not_found'].includes(v.errorCode), `${k}: ${JSON.stringify(v)}`);
    assert.ok(v.helpChars <= 1000, `${k} help is about 250 tokens at most`);
  }
  assert.equal(ex.create.code, 0);
});

test('the embedded server fires the one-shot: the message appears in the target once, as alice, and the run records it', async () => {
  let msgs: any[] = [];
  for (let i = 0; i < 120 && msgs.length === 0; i++) {
    msgs = cliJson(await d.run(['message', 'ls', '--target', 'channel:general', '--limit', '100'])).messages.filter((m: any) => m.content === fireContent);
    if (msgs.length === 0) await new Promise((r) => setTimeout(r, 500));
  }
  assert.equal(msgs.length, 1);
  assert.equal(msgs[0].author.name, 'alice');
  const r = await runExecSteps(d, 'alice', [{ name: 'runs', run: ['scheduled-message', 'runs'], input: { scheduleId: a.once.out.data.schedule.id } }]);
  assert.deepEqual(r.runs.out.data.runs.map((x: any) => [x.status, x.messageId, x.occurrences]), [['sent', msgs[0].id, 1]]);
});
