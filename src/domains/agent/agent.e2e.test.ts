// End-to-end: `agent list/get` through the real `agentteam exec` in daemon-launched runtimes; owner agent commands; no secret on any surface.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cliJson, runExecSteps, TestDaemon } from '../../../test/harness.js';
import { buildRuntimeCatalog, openApiDocument } from '../../catalog/index.js';
import { builtinCatalog } from '../registry.js';

const d = new TestDaemon();
const SECRETS = {
  KEY: 'sk-apikey-S3CR3T-1',
  HDR: 'hdr-value-S3CR3T-2',
  USER: 'userinfo-S3CR3T-3',
  QUERY: 'query-S3CR3T-4',
  FRAG: 'frag-S3CR3T-5',
  PATH: '/srv/path-S3CR3T-6',
  SOURCE: 'src-S3CR3T-7',
  WORKDIR: 'wd-S3CR3T-8',
};
const workdir = join(mkdtempSync(join(tmpdir(), 'agentteam-agent-')), SECRETS.WORKDIR);
mkdirSync(workdir);
const outputs: string[] = [];
let a: Record<string, any>;
let b: Record<string, any>;
let attacks: Record<string, any>;
let added: any;

before(async () => {
  await d.start();
  await d.addAgent('alice');
  const r = await d.run(
    ['agent', 'add', '--name', 'vault', '--runtime', 'claude', '--base-url', `https://${SECRETS.USER}:pw@api.example.com/v1?k=${SECRETS.QUERY}#${SECRETS.FRAG}`, '--api-key-env', 'VAULT_KEY', '--header', 'X-Org-Token=VAULT_HDR', '--allow-path', SECRETS.PATH, '--source', SECRETS.SOURCE, '--workdir', workdir],
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
    { name: 'p1again', run: ['agent', 'list'], input: { limit: 2 } },
    { name: 'claude', run: ['agent', 'list'], input: { filters: { runtime: 'claude', query: ' VAULT ' } } },
    { name: 'missing', run: ['agent', 'get'], input: { agentId: 'mem_missing' } },
    { name: 'examples', examples: 'agent' },
  ]);
  // Tampered cursors: one character changed in the body, in the signature, and a body re-encoded to another anchor.
  const good: string = a.p1again.out.data.nextCursor;
  const [, body, sig] = good.split('.') as [string, string, string];
  const flip = (t: string, i: number) => t.slice(0, i) + (t[i] === 'A' ? 'B' : 'A') + t.slice(i + 1);
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), a: a.p1again.out.data.agents[0].agentId })).toString('base64url'); // another anchor than the signed one
  const big = 'q'.repeat(129);
  attacks = await runExecSteps(d, 'alice', [
    ...[`a2.${flip(body, 5)}.${sig}`, `a2.${body}.${flip(sig, 5)}`, `a2.${forged}.${sig}`, `a2.${body}.${sig}.x`, good.replace('a2.', 'a1.')].map((cursor, i) => ({ name: `t${i}`, run: ['agent', 'list'], input: { limit: 2, cursor } })),
    { name: 'longQuery', run: ['agent', 'list'], input: { filters: { query: big } } },
    { name: 'longId', run: ['agent', 'get'], input: { agentId: `agt_${'x'.repeat(5000)}` } },
    { name: 'limit', run: ['agent', 'list'], input: { limit: 101 } },
    { name: 'extra', run: ['agent', 'list'], input: { filters: { apiKey: 'x' } } },
  ]);
  outputs.push(JSON.stringify(attacks));
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
    { agentId: added.id, name: 'vault', runtime: 'claude', enabled: true, baseUrl: 'https://api.example.com', apiKeyConfigured: true, headerNames: ['x-org-token'], filesystemPolicy: { allowedPathCount: 1 }, session: undefined },
  );
  assert.deepEqual(v.session, { runtimeLive: false, turnLive: false });
  const { id, ...ownerView } = added;
  assert.equal(id, added.agentId);
  assert.deepEqual(ownerView, v);
  assert.deepEqual(a.claude.out.data.agents.map((x: any) => x.name), ['vault']);
  // A list item is the narrow projection: endpoint, credential and policy fields only in get.
  assert.deepEqual(Object.keys(a.claude.out.data.agents[0]).sort(), ['agentId', 'enabled', 'name', 'runtime', 'session']);
  assert.equal(a.claude.out.data.agents[0].agentId, added.id);
  assert.equal(a.examples.code ?? 0, 0);
});

test('filter mismatch, a malformed cursor and churn between pages are validation_failed, never page one', () => {
  assert.equal(a.mismatch.out.error.code, 'validation_failed');
  assert.equal(a.bad.out.error.code, 'validation_failed');
  assert.equal(b.p2.out.error.code, 'validation_failed');
  assert.match(b.p2.out.error.message, /changed/);
  assert.equal(a.missing.out.error.code, 'not_found');
});

test('tampered cursors are validation_failed; oversized or unknown inputs are refused before the daemon acts', () => {
  for (let i = 0; i < 5; i++) assert.equal(attacks[`t${i}`].out.error?.code, 'validation_failed', `t${i}: ${JSON.stringify(attacks[`t${i}`]).slice(0, 300)}`);
  for (const k of ['longQuery', 'longId', 'limit', 'extra']) {
    assert.equal(attacks[k].code, 2, k);
    assert.equal(attacks[k].out.error.code, 'validation_failed', k);
  }
});

test('oversized owner input (name, header value, base URL) is refused, names no secret and changes nothing', async () => {
  const before = cliJson(await d.run(['agent', 'ls', '--json'])).length;
  const probes = [
    await d.run(['agent', 'add', '--name', 'n'.repeat(65)]),
    await d.run(['agent', 'add', '--name', 'probe', '--api-key-env', 'BIG'], { env: { BIG: SECRETS.KEY + 'x'.repeat(5000) } }),
    await d.run(['agent', 'add', '--name', 'probe', '--header', 'X-Big=BIG'], { env: { BIG: SECRETS.HDR + 'x'.repeat(5000) } }),
    await d.run(['agent', 'update', 'vault', '--base-url', `https://${SECRETS.USER}@h/${'p'.repeat(3000)}`]),
    await d.run(['agent', 'update', 'vault', '--name', 'v'.repeat(65)]),
  ];
  for (const p of probes) {
    assert.notEqual(p.code, 0, p.stdout);
    outputs.push(p.stdout, p.stderr);
  }
  assert.equal(cliJson(await d.run(['agent', 'ls', '--json'])).length, before);
  const v = cliJson(await d.run(['agent', 'get', 'vault']));
  assert.deepEqual([v.name, v.baseUrl], ['vault', 'https://api.example.com']);
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
  // MCP output of the configured agent itself, and the OpenAPI document of the Exec catalog.
  const mcp = await d.run(['runtime', 'start', '--agent', 'vault', '--runtime', 'command', '--', process.execPath, resolve(import.meta.dirname, '../../../test/fixtures/mcp-call.mjs'), JSON.stringify({ name: 'message_history_read', arguments: { target: 'channel:general' } })]);
  assert.match(mcp.stdout, /RESULT/);
  outputs.push(mcp.stdout, mcp.stderr, JSON.stringify(openApiDocument(builtinCatalog(), buildRuntimeCatalog(builtinCatalog()).version)));
});

test('no secret of the configuration appears in any output, log line or error (the daemon home holds it only in the 0600 profile)', () => {
  const all = outputs.join('\n');
  for (const s of Object.values(SECRETS)) assert.ok(!all.includes(s), `output leaked ${s}`);
  // Everything the daemon wrote (logs, runtime dirs, journals) except the private profiles folder.
  const text = spawnSync('grep', ['-r', '-a', '-h', '--exclude-dir=profiles', '', d.home], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).stdout;
  assert.ok(text.length > 0);
  for (const s of Object.values(SECRETS)) assert.ok(!text.includes(s), `the daemon home leaked ${s} outside the profile`);
});
