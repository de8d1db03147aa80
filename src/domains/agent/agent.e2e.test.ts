// End-to-end: `agent list/get` through the real `agentteam exec` in daemon-launched runtimes; owner agent commands; no secret on any surface.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cliJson, runExecSteps, TestDaemon } from '../../../test/harness.js';

const d = new TestDaemon();
const SECRETS = {
  KEY: 'sk-apikey-S3CR3T-1',
  HDR: 'hdr-value-S3CR3T-2',
  USER: 'userinfo-S3CR3T-3',
  QUERY: 'query-S3CR3T-4',
  FRAG: 'frag-S3CR3T-5',
  PATH: '/srv/path-S3CR3T-6',
  SOURCE: 'src-S3CR3T-7',
};
const outputs: string[] = [];
let a: Record<string, any>;
let b: Record<string, any>;
let added: any;

before(async () => {
  await d.start();
  await d.addAgent('alice');
  const r = await d.run(
    ['agent', 'add', '--name', 'vault', '--runtime', 'claude', '--base-url', `https://${SECRETS.USER}:pw@api.example.com/v1?k=${SECRETS.QUERY}#${SECRETS.FRAG}`, '--api-key-env', 'VAULT_KEY', '--header', 'X-Org-Token=VAULT_HDR', '--allow-path', SECRETS.PATH, '--source', SECRETS.SOURCE],
    { env: { VAULT_KEY: SECRETS.KEY, VAULT_HDR: SECRETS.HDR } },
  );
  outputs.push(r.stdout, r.stderr);
  assert.equal(r.code, 0, r.stderr);
  added = cliJson(r);
  for (const n of ['carol', 'dave']) await d.addAgent(n);
  a = await runExecSteps(d, 'alice', [
    { name: 'p1', run: ['agent', 'list'], input: { limit: 2 } },
    { name: 'p2', run: ['agent', 'list'], input: { limit: 2, cursor: '${p1.data.nextCursor}' } },
    { name: 'get', run: ['agent', 'get'], input: { agentId: added.id } },
    { name: 'mismatch', run: ['agent', 'list'], input: { limit: 2, cursor: '${p1.data.nextCursor}', filters: { runtime: 'claude' } } },
    { name: 'bad', run: ['agent', 'list'], input: { cursor: 'a2.AAAA.BBBB' } },
    { name: 'claude', run: ['agent', 'list'], input: { filters: { runtime: 'claude', query: ' VAULT ' } } },
    { name: 'missing', run: ['agent', 'get'], input: { agentId: 'mem_missing' } },
    { name: 'examples', examples: 'agent' },
  ]);
  // Churn between pages: the owner adds an agent after page one, so page two is a stale-revision failure.
  const first = await runExecSteps(d, 'alice', [{ name: 'p1', run: ['agent', 'list'], input: { limit: 1 } }]);
  await d.addAgent('erin');
  b = await runExecSteps(d, 'alice', [{ name: 'p2', run: ['agent', 'list'], input: { limit: 1, cursor: first.p1.out.data.nextCursor } }]);
  outputs.push(JSON.stringify(a), JSON.stringify(first), JSON.stringify(b));
});
after(() => d.dispose());

test('agent list walks every agent in Agent ID order with a2 cursors; the owner output is the same projection', () => {
  const ids = [a.p1, a.p2].flatMap((s) => s.out.data.agents.map((x: any) => x.agentId));
  assert.equal(ids.length, 4, JSON.stringify([a.p1.out, a.p2.out].map((o) => o.data?.agents?.map((x: any) => x.name) ?? o)));
  assert.deepEqual(ids, [...ids].sort());
  assert.match(a.p1.out.data.nextCursor, /^a2\./);
  assert.equal(a.p2.out.data.hasMore, false);
  assert.equal(a.p2.out.data.nextCursor, undefined);
  const v = a.get.out.data.agent;
  assert.deepEqual(
    { ...v, session: undefined },
    { agentId: added.id, name: 'vault', runtime: 'claude', enabled: true, baseUrl: 'https://api.example.com/v1', apiKeyConfigured: true, headerNames: ['x-org-token'], filesystemPolicy: { allowedPathCount: 1 }, session: undefined },
  );
  assert.deepEqual(v.session, { runtimeLive: false, turnLive: false });
  const { id, ...ownerView } = added;
  assert.equal(id, added.agentId);
  assert.deepEqual(ownerView, v);
  assert.deepEqual(a.claude.out.data.agents.map((x: any) => x.name), ['vault']);
  assert.equal(a.examples.code ?? 0, 0);
});

test('filter mismatch, a malformed cursor and churn between pages are validation_failed, never page one', () => {
  assert.equal(a.mismatch.out.error.code, 'validation_failed');
  assert.equal(a.bad.out.error.code, 'validation_failed');
  assert.equal(b.p2.out.error.code, 'validation_failed');
  assert.match(b.p2.out.error.message, /changed/);
  assert.equal(a.missing.out.error.code, 'not_found');
});

test('owner update, disable, enable, reload and rm; the running agent sees itself live and the removed agent vanish', async () => {
  const up = cliJson(await d.run(['agent', 'update', 'carol', '--model', 'm2', '--api-key-env', 'K'], { env: { K: SECRETS.KEY } }));
  assert.deepEqual([up.model, up.apiKeyConfigured], ['m2', true]);
  assert.equal(cliJson(await d.run(['agent', 'disable', 'carol'])).enabled, false);
  const refused = await d.run(['runtime', 'start', '--agent', 'carol', '--', 'true']);
  assert.notEqual(refused.code, 0);
  assert.equal(cliJson(await d.run(['agent', 'enable', 'carol'])).enabled, true);
  assert.equal(cliJson(await d.run(['agent', 'reload'])).changed, false);
  const self = await runExecSteps(d, 'dave', [{ name: 'me', run: ['agent', 'list'], input: { filters: { query: 'dave' } } }]);
  assert.deepEqual(self.me.out.data.agents[0].session.runtimeLive, true);
  const rm = await d.run(['agent', 'rm', 'erin']);
  assert.equal(rm.code, 0, rm.stderr);
  const gone = await runExecSteps(d, 'alice', [{ name: 'l', run: ['agent', 'list'], input: { filters: { query: 'erin' } } }]);
  assert.deepEqual(gone.l.out.data.agents, []);
  const help = await Promise.all([['exec', '--help'], ['exec', 'agent', '--help'], ['exec', 'agent', 'list', '--help'], ['exec', 'agent', 'get', '--output-schema'], ['agent', 'ls', '--json'], ['agent', 'get', 'vault'], ['agent', '--help']].map((args) => d.run(args)));
  outputs.push(JSON.stringify(up), JSON.stringify(self), ...help.flatMap((h) => [h.stdout, h.stderr]));
});

test('no secret of the configuration appears in any output, log line or error (the daemon home holds it only in the 0600 profile)', () => {
  const all = outputs.join('\n');
  for (const s of Object.values(SECRETS)) assert.ok(!all.includes(s), `output leaked ${s}`);
  // Everything the daemon wrote (logs, runtime dirs, journals) except the private profiles folder.
  const text = spawnSync('grep', ['-r', '-a', '-h', '--exclude-dir=profiles', '', d.home], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).stdout;
  assert.ok(text.length > 0);
  for (const s of Object.values(SECRETS)) assert.ok(!text.includes(s), `the daemon home leaked ${s} outside the profile`);
});
