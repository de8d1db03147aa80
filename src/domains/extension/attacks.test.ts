// Tests PR watches against hostile input: provider text that could mention an agent, a repo path that climbs out of
// /repos, a replayed webhook under a fresh delivery id or an oversized one, a member aiming a watch at a target they
// cannot post to, and a member churning watches (each costs provider calls and a row).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { TestServer } from '../test-server.js';
import type { CallOutcome } from './contract.js';
import type { FakeProvider } from './fakes/fake-provider.js';
import { POLL, startExtensionFixture, type ExtensionFixture, type Pins } from './fakes/fixture.js';

let f: ExtensionFixture;
let t: TestServer;
let gh: FakeProvider;
let pins: Pins;
const SECRET = 'whsec-0123456789abcdef';

const call = (action: string, input: unknown, as = f.agent): Promise<CallOutcome> => as.extensions.call({ extension: 'github', action, definitionDigest: pins.digest, catalogVersion: pins.version, input });
const code = (p: Promise<unknown>) => p.then((o) => (o as CallOutcome).outcome === 'failed' ? (o as { error: { code: string } }).error.code : 'ok', (e: { code?: string }) => e.code);

before(async () => {
  f = await startExtensionFixture({ agentName: 'watcher', providers: ['github'] });
  t = f.t;
  gh = f.providers.github!;
  await t.owner.extensions.install({ name: 'github', baseUrl: gh.baseUrl, token: gh.token, pollIntervalMs: POLL, webhookSecret: SECRET });
  pins = await f.pinsOf('github');
});
after(() => f.close());

test('a head sha that is not hex never reaches a channel (a hostile provider cannot write "@name" through it)', async () => {
  gh.openPull('o/r', 30);
  assert.equal(await code(call('watch-pr', { repo: 'o/r', number: 30, target: 'channel:general' })), 'ok');
  gh.push('o/r', 30, '@bot hi');
  await f.poll();
  const said = (await f.general()).filter((m) => m.startsWith('github o/r#30'));
  assert.ok(said.every((m) => !m.includes('@')), JSON.stringify(said));
  assert.deepEqual(said, ['github o/r#30: github did not answer (provider_failed); retrying later']);
});

test('the largest update one poll can post stays within the 8,000-byte message bound (long logins and paths are cut, lines capped)', async () => {
  const repo = `${'o'.repeat(100)}/${'r'.repeat(100)}`;
  gh.openPull(repo, 2147483647);
  assert.equal(await code(call('watch-pr', { repo, number: 2147483647, target: 'channel:general' })), 'ok');
  for (let i = 0; i < 30; i++) gh.comment(repo, 2147483647, `${'m'.repeat(90)}${i}`, `${'dir/'.repeat(120)}é@x${i}`);
  await f.poll();
  const said = (await f.general()).at(-1)!;
  assert.ok(said.startsWith(`github ${repo}#2147483647: `), said.slice(0, 80));
  assert.equal(said.split('\n- ').length - 1, 20);
  assert.ok(Buffer.byteLength(said) <= 8000, String(Buffer.byteLength(said)));
  assert.ok(!said.includes('@') && !said.includes('é'));
});

test('a repo of "." or ".." segments is refused before any provider call (no path outside /repos/{owner}/{repo})', async () => {
  const n = gh.requests.length;
  for (const repo of ['../x', 'o/..', './r', 'o/.']) assert.equal(await code(call('watch-pr', { repo, number: 7, target: 'channel:general' })), 'validation_failed', repo);
  assert.equal(gh.requests.length, n);
  gh.openPull('o/.github', 31);
  assert.equal(await code(call('watch-pr', { repo: 'o/.github', number: 31, target: 'channel:general' })), 'ok', 'a name that starts with a dot is a name');
});

test('webhooks: a replayed body under a fresh delivery id is ignored; an oversized delivery is 413; an unsigned one 403', async () => {
  gh.openPull('o/r', 32);
  assert.equal(await code(call('watch-pr', { repo: 'o/r', number: 32, target: 'channel:general' })), 'ok');
  const body = JSON.stringify({ action: 'submitted', pull_request: { number: 32 }, repository: { full_name: 'o/r' } });
  const deliver = (b: string, id: string, sig = `sha256=${createHmac('sha256', SECRET).update(b).digest('hex')}`) =>
    fetch(`${t.server.url}/v1/extensions/github/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-github-event': 'pull_request_review', 'x-github-delivery': id, 'x-hub-signature-256': sig }, body: b });
  const first = await deliver(body, 'a1b2c3d4-0000-0000-0000-000000000001');
  assert.equal(((await first.json()) as { data: { accepted: boolean } }).data.accepted, true);
  const replay = await deliver(body, 'a1b2c3d4-0000-0000-0000-000000000002');
  assert.deepEqual(((await replay.json()) as { data: unknown }).data, { accepted: false, watches: 0 }, 'the same signed body is one delivery');
  const big = JSON.stringify({ pad: 'x'.repeat(1024 * 1024) });
  assert.equal((await deliver(big, 'a1b2c3d4-0000-0000-0000-000000000003')).status, 413);
  assert.equal((await deliver(body, 'a1b2c3d4-0000-0000-0000-000000000004', '')).status, 403);
});

test('a watch aimed at a channel or DM the member cannot post to is not_found, with no provider call; a creator who leaves the channel stops the watch', async () => {
  await t.owner.channels.create({ id: 'secret' });
  gh.openPull('o/r', 33);
  const n = gh.requests.length;
  assert.equal(await code(call('watch-pr', { repo: 'o/r', number: 33, target: 'channel:secret' })), 'not_found');
  assert.equal(gh.requests.length, n, 'no provider call for a target it may not use');
  const other = await t.owner.members.createAgent({ name: 'other' });
  const dm = await t.owner.channels.openDm({ memberIds: [other.agent.id] });
  assert.equal(await code(call('watch-pr', { repo: 'o/r', number: 33, target: `dm:${dm.id}` })), 'not_found', "someone else's DM");
  // Added, watching, then removed: the next update is not posted there and the watch stops.
  const me = await f.agent.members.me();
  await t.owner.channels.addMember({ channelId: 'secret', memberId: me.id });
  assert.equal(await code(call('watch-pr', { repo: 'o/r', number: 33, target: 'channel:secret' })), 'ok');
  await t.owner.channels.removeMember({ channelId: 'secret', memberId: me.id });
  gh.review('o/r', 33, 'eve', 'APPROVED');
  await f.poll();
  const secret = await t.owner.messages.list({ target: 'channel:secret', limit: 10 });
  assert.equal(secret.messages.length, 0);
  const listed = (await call('list-watches', {})) as { data: { watches: { number: number; status?: string }[] } };
  assert.equal(listed.data.watches.find((w) => w.number === 33)?.status, 'stopped');
});

test('a member churning watches is bounded: at most 60 new watches an hour (each costs a provider baseline), and only the newest 100 stopped ones are kept', async () => {
  gh.openPull('o/r', 34);
  const all = async () => {
    const out: { id: string; status?: string }[] = [];
    let cursor: string | undefined;
    do {
      const page = (await call('list-watches', { limit: 100, ...(cursor ? { cursor } : {}) })) as { data: { watches: { id: string; status?: string }[]; nextCursor?: string } };
      out.push(...page.data.watches);
      cursor = page.data.nextCursor;
    } while (cursor);
    return out;
  };
  const prior = (await all()).length;
  const cycle = async () => {
    const w = await call('watch-pr', { repo: 'o/r', number: 34, target: 'channel:general' }).catch((e: { code?: string }) => e.code ?? 'error');
    if (typeof w === 'string' || w.outcome !== 'ok') return typeof w === 'string' ? w : w.error.code;
    await call('unwatch', { watchId: (w.data as { watch: { id: string } }).watch.id });
    return 'ok';
  };
  let started = 0;
  for (let i = 0; i < 70 && (await cycle()) === 'ok'; i++) started++;
  assert.equal(prior + started, 60, 'the 61st start within the hour is refused');
  assert.equal(await cycle(), 'conflict');
  f.clock.advance(3_600_000);
  for (let i = 0; i < 50; i++) assert.equal(await cycle(), 'ok');
  const kept = await all();
  assert.ok(kept.filter((w) => w.status === 'stopped').length <= 100, `${kept.length} kept`);
  assert.ok(kept.length < prior + started + 50, 'older stopped watches were dropped');
});
