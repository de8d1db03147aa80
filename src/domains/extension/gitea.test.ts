// Tests Gitea PR watches polled with `since` against a real server (fake clock) and the local fake Gitea: an unchanged
// PR costs one empty timeline page and the status, long timelines page and resume, `since` follows the provider's
// clock, edits and label events post nothing, and a watch made before since-polling replays no history.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { FakeClock } from '../../shared/clock.js';
import type { TestServer } from '../test-server.js';
import type { CallOutcome } from './contract.js';
import { FakeProvider } from './fakes/fake-provider.js';
import { POLL, startExtensionFixture, type ExtensionFixture, type Pins } from './fakes/fixture.js';

let f: ExtensionFixture;
let t: TestServer;
let clock: FakeClock;
let gt: FakeProvider;

const call = (action: string, input: unknown, p: Pins, ext: 'gitea' = 'gitea'): Promise<CallOutcome> => f.call(action, input, p, ext);
const pinsOf = (name: 'gitea') => f.pinsOf(name);
const poll = () => f.poll();
const general = () => f.general();

before(async () => {
  f = await startExtensionFixture({ agentName: 'watcher', providers: ['gitea'] });
  ({ t, clock } = f);
  gt = f.providers.gitea!;
  await t.owner.extensions.install({ name: 'gitea', baseUrl: gt.baseUrl, token: gt.token, pollIntervalMs: POLL });
});
after(() => f.close());

test('gitea polls with since (the provider\'s clock) and pages: an unchanged PR costs one empty timeline page and the status; long timelines page; edits and labels post nothing', async () => {
  const gp = await pinsOf('gitea');
  gt.openPull('team/app', 4, 'c'.repeat(40));
  assert.equal((await call('watch-pr', { repo: 'team/app', number: 4, target: 'channel:general' }, gp, 'gitea')).outcome, 'ok');
  await poll();
  await poll();
  await poll();
  const from = gt.requests.length;
  const before = (await general()).length;
  const providerAt = clock.now();
  await poll();
  const quiet = gt.requests.slice(from);
  assert.deepEqual(quiet.map((r) => r.path.replace(/\?.*$/, '')), ['/api/v1/repos/team/app/issues/4/timeline', `/api/v1/repos/team/app/commits/${'c'.repeat(40)}/status`], JSON.stringify(quiet));
  assert.equal(quiet[0]!.bytes, 2, 'the timeline answered []');
  const since = new URL(quiet[0]!.path, 'http://x').searchParams;
  assert.equal(since.get('since'), new Date(Math.floor((providerAt - 10_000) / 1000) * 1000).toISOString().replace('.000Z', 'Z'), 'since = the provider Date of the last read, less the overlap');
  assert.deepEqual([since.get('page'), since.get('limit')], ['1', '50']);
  assert.equal((await general()).length, before, 'nothing posted');

  // A long timeline is paged (a full page means "read the next"); each comment is counted once.
  const ids: number[] = [];
  for (let i = 0; i < 120; i++) ids.push(gt.comment('team/app', 4, `u${i}`, 'x'));
  const paged = gt.requests.length;
  await poll();
  const burst = (await general()).at(-1)!;
  assert.match(burst, /^gitea team\/app#4: \n- comment by u0\n- comment by u1\n[\s\S]*- comment by u18\n- …and 101 more updates$/);
  assert.ok(gt.requests.slice(paged).some((r) => r.path.includes('page=3')), 'read page 3');
  // Edited comments come back in the timeline (updated time) and a label event is not an update: nothing posted.
  gt.editComment('team/app', 4, ids[3]!, 'edited');
  gt.label('team/app', 4, 'carol');
  const n = (await general()).length;
  await poll();
  await poll();
  await poll();
  assert.equal((await general()).length, n, 'no repeat, no label line');
  // A review is said with its state (read by id); a push is a new head (the PR read again) and moves the CI status read.
  gt.review('team/app', 4, 'erin', 'CHANGES_REQUESTED');
  gt.push('team/app', 4, 'b'.repeat(40));
  gt.setCi('team/app', 4, 'success');
  await poll();
  assert.equal((await general()).at(-1), 'gitea team/app#4: \n- review by erin: request changes\n- new commits (head bbbbbbb)\n- CI success');

  // The provider's clock, not the server's: a Gitea an hour behind still has its events found.
  const behind = await FakeProvider.start('gitea', { now: () => clock.now() - 3_600_000 });
  try {
    await t.owner.extensions.install({ name: 'gitea', baseUrl: behind.baseUrl, token: behind.token, pollIntervalMs: POLL });
    behind.openPull('team/app', 5);
    assert.equal((await call('watch-pr', { repo: 'team/app', number: 5, target: 'channel:general' }, await pinsOf('gitea'), 'gitea')).outcome, 'ok');
    await poll();
    behind.comment('team/app', 5, 'frank', 'x');
    await poll();
    assert.equal((await general()).at(-1), 'gitea team/app#5: comment by frank');
  } finally {
    await t.owner.extensions.install({ name: 'gitea', baseUrl: gt.baseUrl, token: gt.token, pollIntervalMs: POLL });
    await behind.close();
  }
});

test('gitea: a timeline longer than one poll\'s 10 pages continues at the next poll; a watch made before since-polling starts without replaying history', async () => {
  const gp = await pinsOf('gitea');
  gt.openPull('team/app', 6, 'd'.repeat(40));
  const w = (await call('watch-pr', { repo: 'team/app', number: 6, target: 'channel:general' }, gp, 'gitea')) as { data: { watch: { id: string } } };
  for (let i = 0; i < 520; i++) gt.comment('team/app', 6, `c${i}`, 'x');
  await poll();
  assert.match((await general()).at(-1)!, /^gitea team\/app#6: \n- comment by c0\n[\s\S]*- comment by c18\n- …and 481 more updates$/);
  const [row] = await t.querySql<{ state: string }>('SELECT state FROM extension_watches WHERE id = ?', [w.data.watch.id]);
  assert.equal((JSON.parse(row!.state) as { resume?: { page: number } }).resume?.page, 11);
  await poll();
  const rest = (await general()).at(-1)!;
  assert.match(rest, /^gitea team\/app#6: \n- comment by c500\n[\s\S]*- comment by c519$/);
  assert.equal(rest.split('\n- ').length - 1, 20);
  await poll();
  assert.equal((await general()).at(-1), rest, 'nothing twice');

  // A watch whose state predates since-polling (no `since`): its first poll records the timeline, posting nothing.
  const st = JSON.parse((await t.querySql<{ state: string }>('SELECT state FROM extension_watches WHERE id = ?', [w.data.watch.id]))[0]!.state) as Record<string, unknown>;
  delete st.since;
  delete st.resume;
  st.maxComment = 0;
  await t.runSql('UPDATE extension_watches SET state = ? WHERE id = ?', [JSON.stringify(st), w.data.watch.id]);
  const n = (await general()).length;
  await poll();
  assert.equal((await general()).length, n, 'no history replayed');
  gt.comment('team/app', 6, 'late', 'x');
  await poll();
  assert.equal((await general()).at(-1), 'gitea team/app#6: comment by late');
});

test('gitea: a head moved without a timeline event is still reported, by the PR read made at least every 10 polls', async () => {
  gt.openPull('team/app', 9, 'd'.repeat(40));
  assert.equal((await call('watch-pr', { repo: 'team/app', number: 9, target: 'channel:general' }, await pinsOf('gitea'), 'gitea')).outcome, 'ok');
  await poll();
  gt.moveHeadSilently('team/app', 9, 'e'.repeat(40));
  gt.setCi('team/app', 9, 'failure');
  const mine = async () => (await general()).filter((c) => c.startsWith('gitea team/app#9'));
  let polls = 0;
  while ((await mine()).length === 0 && polls < 12) {
    await poll();
    polls++;
  }
  assert.ok(polls <= 10, `reported after ${polls} polls`);
  assert.deepEqual(await mine(), ['gitea team/app#9: \n- new commits (head eeeeeee)\n- CI failure']);
});
