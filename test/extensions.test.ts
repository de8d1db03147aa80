// End-to-end: the owner installs a (fake) GitHub App; a real runtime sees `agentteam exec github` in its help, validates
// and watches a PR; provider changes (review, CI status and check run, merge) appear in #general; a revoked installation and a provider
// outage give their two typed errors; a catalog changed under a live runtime gives the stale-catalog error; a new
// runtime gets the new catalog.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FakeProvider } from '../src/domains/extension/fakes/fake-provider.js';
import { TestDaemon, cliJson, runExecSteps } from './harness.js';

const d = new TestDaemon();
let gh: FakeProvider;
let gt: FakeProvider;
const FIXTURE = resolve(import.meta.dirname, 'fixtures', 'ext-runtime.mjs');
const WATCH = { repo: 'o/r', number: 7, target: 'channel:general' };
const file = (n: string) => join(d.home, `ext-${n}`);

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const general = async (): Promise<string[]> => (cliJson(await d.run(['message', 'ls', '--target', 'channel:general', '--limit', '50'])).messages as { content: string }[]).map((m) => m.content);
const posted = (re: RegExp) => until(`#general to show ${re}`, async () => (await general()).find((c) => re.test(c)));

before(async () => {
  gh = await FakeProvider.start('github');
  gt = await FakeProvider.start('gitea');
  await d.start();
  await d.addAgent('watcher');
  const inst = await d.run(['extension', 'install', 'github', '--base-url', gh.baseUrl, '--token-env', 'GH_APP_TOKEN', '--poll-interval', '1'], { env: { GH_APP_TOKEN: gh.token } });
  assert.equal(inst.code, 0, inst.stderr);
  assert.equal(inst.stdout.includes(gh.token), false);
  gh.openPull('o/r', 7);
  gh.setCi('o/r', 7, 'pending');
  gh.checkRun('o/r', 7, 'build', 'queued');
  gh.openPull('o/r', 8);
});
after(async () => {
  await d.dispose();
  await gh.close();
  await gt.close();
});

test('a runtime watches a PR through agentteam exec github; updates reach #general; revoked vs outage; stale catalog', async () => {
  const steps = [
    { name: 'root', args: ['--help'] },
    { name: 'help', args: ['github', '--help'] },
    { name: 'actionHelp', args: ['github', 'watch-pr', '--help'] },
    { name: 'schema', args: ['github', 'watch-pr', '--input-schema'] },
    { name: 'bad', args: ['github', 'watch-pr', JSON.stringify({ repo: 'o/r', number: 7 })] },
    { name: 'pinInInput', args: ['github', 'list-watches', JSON.stringify({ definitionDigest: 'sha256:0' })] },
    { name: 'watch', args: ['github', 'watch-pr', JSON.stringify(WATCH)] },
    { signal: file('watched') },
    { waitFor: file('revoked') },
    { name: 'revoked', args: ['github', 'watch-pr', JSON.stringify({ ...WATCH, number: 8 })] },
    { signal: file('revokedDone') },
    { waitFor: file('outage') },
    { name: 'outage', args: ['github', 'watch-pr', JSON.stringify({ ...WATCH, number: 8 })] },
    { signal: file('outageDone') },
    { waitFor: file('changed') },
    { name: 'stale', args: ['github', 'list-watches'] },
  ];
  const stepsFile = join(d.home, 'ext-steps.json');
  writeFileSync(stepsFile, JSON.stringify(steps), { mode: 0o600 });
  const run = d.run(['runtime', 'start', '--agent', 'watcher', '--', process.execPath, FIXTURE, stepsFile], { timeoutMs: 180_000 });
  await until('the watch', async () => (existsSync(file('watched')) ? true : undefined), 60_000);

  gh.review('o/r', 7, 'alice', 'APPROVED');
  gh.setCi('o/r', 7, 'success');
  gh.checkRun('o/r', 7, 'build', 'completed', 'failure');
  // A poll already under way when the three changes land may post some of them now and the rest at the next poll:
  // wait for all three across the PR's messages, each posted once.
  const updates = await until('the review, CI status and check run in #general', async () => {
    const all = (await general()).filter((c) => c.startsWith('github o/r#7: ')).join('\n');
    return /review by alice: approved/.test(all) && /CI success \(was pending\)/.test(all) && /- CI: build completed: failure/.test(all) ? all : undefined;
  });
  for (const once of [/review by alice: approved/g, /CI success \(was pending\)/g, /- CI: build completed: failure/g]) assert.equal(updates.match(once)?.length, 1, String(once));
  gh.merge('o/r', 7);
  await posted(/^github o\/r#7: \n- merged\n- watch stopped$/);

  gh.revoked = true;
  writeFileSync(file('revoked'), 'x', { mode: 0o600 });
  await until('the revoked call', async () => (existsSync(file('revokedDone')) ? true : undefined));
  gh.revoked = false;
  gh.outage = true;
  writeFileSync(file('outage'), 'x', { mode: 0o600 });
  await until('the outage call', async () => (existsSync(file('outageDone')) ? true : undefined));
  gh.outage = false;
  const inst = await d.run(['extension', 'install', 'gitea', '--base-url', gt.baseUrl, '--token-env', 'GT_TOKEN'], { env: { GT_TOKEN: gt.token } });
  assert.equal(inst.code, 0, inst.stderr);
  writeFileSync(file('changed'), 'x', { mode: 0o600 });

  const r = await run;
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout.split('\n').find((l) => l.startsWith('RESULT'))!.slice(6));
  assert.match(report.root.text, /^ {2}github {2,}GitHub pull-request watches \(App extension\)\.$/m, 'the root help lists the Extension domain with its summary');
  assert.match(report.help.text, /^Usage: agentteam exec github <action> \[JSON\|-\]\nGitHub pull-request watches \(App extension\)\.\n/, 'the domain help says what it is');
  assert.ok(!`${report.root.text}${report.help.text}`.includes('Extension actions.'), 'no placeholder summary');
  assert.match(report.help.text, /watch-pr {2,}Post GitHub PR updates/);
  assert.match(report.help.text, /list-watches/);
  assert.match(report.actionHelp.text, /agentteam exec github watch-pr '\{"repo":"o\/r","number":7,"target":"channel:general"\}'/);
  assert.deepEqual(report.schema.out.required, ['repo', 'number', 'target']);
  assert.equal(report.bad.code, 2, 'validated by the CLI before sending');
  assert.equal(report.bad.out.error.code, 'validation_failed');
  assert.equal(report.pinInInput.code, 2, 'a pin cannot come from the request');
  assert.equal(report.pinInInput.out.error.code, 'validation_failed');
  assert.equal(report.watch.code, 0, JSON.stringify(report.watch));
  assert.deepEqual({ ...report.watch.out.data.watch, id: 'x' }, { id: 'x', ...WATCH });
  assert.equal(report.revoked.code, 1);
  assert.equal(report.revoked.out.error.code, 'provider_unauthorized');
  assert.ok(report.revoked.out.error.hint && report.revoked.out.error.next);
  assert.equal(report.outage.code, 1);
  assert.equal(report.outage.out.error.code, 'provider_failed');
  assert.ok(report.outage.out.error.hint && report.outage.out.error.next);
  assert.notEqual(report.revoked.out.error.message, report.outage.out.error.message);
  assert.equal(report.stale.out.error.code, 'conflict');
  assert.match(report.stale.out.error.message, /^stale_catalog/);
  assert.match(report.stale.out.error.hint, /restart the runtime/);
  for (const raw of ['Bad credentials', 'Server Error', 'documentation_url']) assert.ok(!r.stdout.includes(raw), raw);

  // A new runtime pins the new catalog: both Apps, and the call works again.
  const next = await runExecSteps(d, 'watcher', [{ name: 'root', run: ['--help'] }, { name: 'list', run: ['github', 'list-watches'] }]);
  assert.match(next.root.out, /^ {2}gitea {2,}Gitea pull-request watches \(App extension\)\.$/m);
  assert.equal(next.list.code, 0, JSON.stringify(next.list));
  assert.equal(next.list.out.data.watches[0].status, 'stopped');

  // The installation token never reaches a log.
  const logs = join(d.home, 'logs');
  for (const f of readdirSync(logs)) assert.equal(readFileSync(join(logs, f), 'utf8').includes(gh.token), false, f);
});
