// Tests GitHub check runs in PR watches against a real server (fake clock) and the local fake GitHub: a check run's
// state change is posted once, an unchanged head is one conditional 304 that posts nothing, Link pages are followed
// (a change on page 2 behind an unchanged page 1 too), names are sanitized, a new head starts fresh, a missing
// `checks` permission leaves the watch running, and the remembered runs per head are capped (state bytes bounded).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../test-server.js';
import type { CallOutcome } from './contract.js';
import type { FakeProvider } from './fakes/fake-provider.js';
import { POLL, startExtensionFixture, type ExtensionFixture, type Pins } from './fakes/fixture.js';
import { MAX_CHECKS } from './checks.js';
import { checkName } from './github.js';

let f: ExtensionFixture;
let t: TestServer;
let gh: FakeProvider;
let pins: Pins;

const call = (action: string, input: unknown): Promise<CallOutcome> => f.call(action, input, pins);
const poll = () => f.poll();
const general = () => f.general();
const checkReads = (from: number) => gh.requests.slice(from).filter((r) => r.path.includes('/check-runs'));
const watchState = async (id: string) => (await t.querySql<{ state: string }>('SELECT state FROM extension_watches WHERE id = ?', [id]))[0]!.state;

before(async () => {
  f = await startExtensionFixture({ agentName: 'ci-watcher', providers: ['github'] });
  ({ t } = f);
  gh = f.providers.github!;
  await t.owner.extensions.install({ name: 'github', baseUrl: gh.baseUrl, token: gh.token, pollIntervalMs: POLL });
  pins = await f.pinsOf('github');
});
after(() => f.close());

test('check runs: queued→completed: failure is posted once; an unchanged head is a 304 that posts nothing; Link pages followed', async () => {
  gh.openPull('o/r', 30);
  gh.checkRun('o/r', 30, 'build', 'queued');
  gh.checkRun('o/r', 30, 'lint', 'completed', 'success');
  const w = await call('watch-pr', { repo: 'o/r', number: 30, target: 'channel:general' });
  assert.equal(w.outcome, 'ok', JSON.stringify(w));
  const start = (await general()).length;
  let from = gh.requests.length;
  await poll();
  assert.equal((await general()).length, start, 'the baseline is not posted and nothing changed');
  assert.deepEqual(checkReads(from).map((r) => [r.conditional, r.status]), [[true, 304]], 'one conditional read, answered 304');

  gh.checkRun('o/r', 30, 'build', 'completed', 'failure');
  await poll();
  const posted = (await general()).slice(start);
  assert.deepEqual(posted, ['github o/r#30: CI: build completed: failure']);
  assert.ok(!posted[0]!.includes('ignore previous'), 'no provider text beyond the check name and state');
  from = gh.requests.length;
  await poll();
  await poll();
  assert.equal((await general()).length, start + 1, 'posted once');
  assert.ok(checkReads(from).every((r) => r.conditional && r.status === 304), JSON.stringify(checkReads(from)));

  // Four runs, two a page (newest first): e2e, test | build, lint. New runs on page 1, then a change on page 2 alone.
  gh.pageSize = 2;
  gh.checkRun('o/r', 30, 'test (node 20)', 'in_progress');
  gh.checkRun('o/r', 30, 'e2e', 'queued');
  from = gh.requests.length;
  await poll();
  assert.equal((await general()).at(-1), 'github o/r#30: \n- CI: e2e queued\n- CI: test (node 20) in progress');
  assert.ok(checkReads(from).some((r) => r.path.includes('page=2')), 'followed rel="next"');
  gh.checkRun('o/r', 30, 'lint', 'completed', 'cancelled');
  from = gh.requests.length;
  await poll();
  assert.equal((await general()).at(-1), 'github o/r#30: CI: lint completed: cancelled');
  assert.deepEqual(checkReads(from).map((r) => [r.path.includes('page=2'), r.status]), [[false, 304], [true, 200]], 'page 1 unchanged (304), its stored successor re-read');
  from = gh.requests.length;
  const n = (await general()).length;
  await poll();
  assert.equal((await general()).length, n, 'unchanged pages post nothing');
  assert.deepEqual(checkReads(from).map((r) => [r.conditional, r.status]), [[true, 304], [true, 304]], 'each stored page: one 304');
  gh.pageSize = 100;
});

test('check run names are sanitized and bounded; a new head starts fresh; a missing checks permission keeps the watch running', async () => {
  assert.equal(checkName('@all <b>deploy</b>\n\nnow `rm -rf`'), 'all bdeploy/b now rm -rf');
  assert.equal(checkName('x'.repeat(500)).length, 60);
  assert.equal(checkName('🚀'), 'check');
  gh.openPull('o/r', 31, 'd'.repeat(40));
  const w = (await call('watch-pr', { repo: 'o/r', number: 31, target: 'channel:general' })) as { data: { watch: { id: string } } };
  gh.checkRun('o/r', 31, '@here <deploy>\nprod', 'queued');
  await poll();
  assert.equal((await general()).at(-1), 'github o/r#31: CI: here deploy prod queued');

  gh.push('o/r', 31, 'b'.repeat(40));
  gh.checkRun('o/r', 31, 'build', 'queued');
  await poll();
  assert.equal((await general()).at(-1), 'github o/r#31: \n- new commits (head bbbbbbb)\n- CI: build queued', 'the old head\'s runs are not repeated');
  assert.equal(JSON.parse(await watchState(w.data.watch.id)).checks.sha, 'b'.repeat(40));

  gh.checksDenied = true;
  gh.push('o/r', 31, 'c'.repeat(40));
  await poll();
  assert.equal((await general()).at(-1), 'github o/r#31: new commits (head ccccccc)');
  const from = gh.requests.length;
  gh.review('o/r', 31, 'alice', 'APPROVED');
  await poll();
  assert.equal((await general()).at(-1), 'github o/r#31: review by alice: approved', 'the watch goes on without check runs');
  assert.equal(checkReads(from).length, 0, 'a refused head is not asked again');
  gh.checksDenied = false;
});

test('check runs remembered per head are capped: state stays bounded in bytes, no run is posted twice', async () => {
  gh.openPull('o/r', 32, 'e'.repeat(40));
  const w = (await call('watch-pr', { repo: 'o/r', number: 32, target: 'channel:general' })) as { data: { watch: { id: string } } };
  for (let i = 0; i < MAX_CHECKS + 30; i++) gh.checkRun('o/r', 32, `job ${i}`, 'completed', 'skipped');
  await poll();
  const first = (await general()).at(-1)!;
  assert.match(first, /…and \d+ more updates$/, 'one poll posts at most its line bound');
  const state = await watchState(w.data.watch.id);
  assert.equal(Object.keys(JSON.parse(state).checks.runs).length, MAX_CHECKS);
  assert.ok(Buffer.byteLength(state) < 8 * 1024, `${Buffer.byteLength(state)} bytes`);
  const n = (await general()).length;
  await poll();
  assert.equal((await general()).length, n, 'nothing repeated, untracked runs beyond the cap stay quiet');
});
