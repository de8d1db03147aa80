// Tests the profile index: Agent ID order, a2 cursors bound to filters and revision, limit + 1 copies, orphan cleanup, projection rules.
import { test } from 'node:test';
import { createHmac } from 'node:crypto';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentIndex, normalizeHeaderNames, projectAgent, safeBaseUrl } from './agent-index.js';
import { ProfileStore, type AgentProfile } from '../home/profiles.js';

const idle = { runtimeLive: false, turnLive: false };
function setup(n: number) {
  const dir = mkdtempSync(join(tmpdir(), 'agidx-'));
  const store = new ProfileStore(dir);
  const resolved: string[] = [];
  const idx = new AgentIndex({ store, live: (id) => (resolved.push(id), idle) });
  for (let i = 0; i < n; i++) idx.add(agent(`mem_${String(i).padStart(3, '0')}`, i % 2 === 0 ? 'claude' : 'codex'));
  return { dir, store, idx, resolved, done: () => rmSync(dir, { recursive: true, force: true }) };
}
const agent = (id: string, runtime: AgentProfile['runtime'] = 'command', extra: Partial<AgentProfile> = {}): AgentProfile => ({ id, name: `n-${id}`, runtime, createdAt: '2026-01-01T00:00:00.000Z', credential: `cred-${id}`, ...extra });
const code = (c: string) => (e: unknown) => (e as { code?: string }).code === c;

test('walks every agent in Agent ID order; each page copies only limit + 1 configurations and resolves only its own sessions', () => {
  const s = setup(23);
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    s.idx.copies = 0;
    s.resolved.length = 0;
    const p = s.idx.page({ limit: 5, ...(cursor ? { cursor } : {}) });
    assert.ok(s.idx.copies <= 6, `copied ${s.idx.copies}`);
    assert.deepEqual(s.resolved, p.agents.map((a) => a.agentId));
    seen.push(...p.agents.map((a) => a.agentId));
    assert.equal(p.hasMore, p.nextCursor !== undefined);
    if (p.nextCursor) assert.match(p.nextCursor, /^a2\./);
    cursor = p.nextCursor;
  } while (cursor);
  assert.deepEqual(seen, s.store.ids());
  assert.equal(seen.length, 23);
  s.done();
});

test('filters are normalized and bound: the same filters in another spelling continue, different filters fail', () => {
  const s = setup(10);
  const p1 = s.idx.page({ limit: 2, filters: { runtime: 'claude', query: '  N-MEM ' } });
  assert.deepEqual(p1.agents.map((a) => a.agentId), ['mem_000', 'mem_002']);
  const p2 = s.idx.page({ limit: 2, cursor: p1.nextCursor!, filters: { query: 'n-mem', runtime: 'claude' } });
  assert.deepEqual(p2.agents.map((a) => a.agentId), ['mem_004', 'mem_006']);
  assert.throws(() => s.idx.page({ cursor: p1.nextCursor!, filters: { runtime: 'codex', query: 'n-mem' } }), code('validation_failed'));
  assert.throws(() => s.idx.page({ cursor: p1.nextCursor! }), code('validation_failed'));
  s.done();
});

test('churn between pages (add, update, delete, reload, orphan cleanup) is a stale-revision validation failure, never page one', () => {
  const s = setup(6);
  const churns: Array<() => void> = [
    () => s.idx.add(agent('mem_zzz')),
    () => s.idx.update('mem_001', { enabled: false }),
    () => s.idx.remove('mem_005'),
    () => {
      writeFileSync(join(s.dir, 'mem_aaa.json'), JSON.stringify(agent('mem_aaa')));
      chmodSync(join(s.dir, 'mem_aaa.json'), 0o600);
      assert.equal(s.idx.reload(), true);
    },
    () => {
      rmSync(join(s.dir, 'mem_aaa.json'));
      assert.equal(s.idx.reload(), true, 'a vanished file is a change');
    },
    () => assert.deepEqual(s.idx.cleanupOrphans((id) => id !== 'mem_002'), ['mem_002']),
  ];
  for (const churn of churns) {
    const before = s.idx.revision;
    const p = s.idx.page({ limit: 1 });
    churn();
    assert.ok(s.idx.revision > before, 'revision bumped');
    assert.throws(() => s.idx.page({ limit: 1, cursor: p.nextCursor! }), (e: any) => e.code === 'validation_failed' && /changed/.test(e.message));
  }
  const r = s.idx.revision;
  const p = s.idx.page({ limit: 1 });
  assert.equal(s.idx.reload(), false, 'an unchanged folder');
  assert.equal(s.idx.revision, r + 1, 'a reload invalidates the revision even when nothing changed');
  assert.throws(() => s.idx.page({ limit: 1, cursor: p.nextCursor! }), code('validation_failed'));
  assert.deepEqual(s.idx.cleanupOrphans(() => true), []);
  assert.equal(s.idx.revision, r + 1, 'an orphan cleanup that removes nothing does not bump');
  s.done();
});

test('malformed, forged and anchor-less cursors are validation failures', () => {
  const s = setup(4);
  const p = s.idx.page({ limit: 1 });
  const [, body, sig] = p.nextCursor!.split('.');
  for (const bad of ['x', 'a2.', `a1.${body}.${sig}`, `a2.${body}.${sig}x`, `a2.${body}x.${sig}`, `a2.${Buffer.from(JSON.stringify({ f: {}, r: s.idx.revision, a: 'mem_003' })).toString('base64url')}.${sig}`]) {
    assert.throws(() => s.idx.page({ cursor: bad }), code('validation_failed'), bad);
  }
  // A validly signed body with a wrong shape (as if minted by a buggy version) is still only a validation failure.
  const key = Buffer.alloc(32, 7);
  const keyed = new AgentIndex({ store: s.store, live: () => idle, cursorKey: key });
  const mint = (o: unknown) => {
    const b = Buffer.from(JSON.stringify(o)).toString('base64url');
    return `a2.${b}.${createHmac('sha256', key).update(b).digest('base64url')}`;
  };
  for (const body of [null, 7, { r: 'x' }, { f: {}, r: keyed.revision, a: 'mem_000', o: '' }]) assert.throws(() => keyed.page({ cursor: mint(body) }), code('validation_failed'), JSON.stringify(body));
  // Another daemon (another key) cannot mint a cursor for this one.
  const other = new AgentIndex({ store: s.store, live: () => idle });
  assert.throws(() => other.page({ cursor: p.nextCursor! }), code('validation_failed'));
  s.done();
});

test('a deleted anchor fails even when the revision would match (the file vanished without a reload)', () => {
  const s = setup(3);
  const p = s.idx.page({ limit: 1 });
  s.store.remove('mem_000');
  assert.throws(() => s.idx.page({ limit: 1, cursor: p.nextCursor! }), (e: any) => e.code === 'validation_failed' && /anchor/.test(e.message));
  s.done();
});

test('the safe projection: key configured as a boolean, header names normalized, base URL stripped, policy as a count, no source ids', () => {
  const p = agent('mem_x', 'claude', {
    model: 'm1', apiKey: 'sk-SECRET', headers: { ' X-Api-Token ': 'hv-SECRET', 'x-api-token': 'hv2', Accept: 'a' },
    baseUrl: 'https://user:pw-SECRET@api.example.com:8443/v1?key=q-SECRET#frag-SECRET', allowedPaths: ['/srv/SECRET-path', '/b'], sourceIds: ['src-SECRET'], workdir: '/home/SECRET',
  });
  const v = projectAgent(p, { runtimeLive: true, turnLive: false });
  assert.deepEqual(v, {
    agentId: 'mem_x', name: 'n-mem_x', runtime: 'claude', enabled: true, model: 'm1', baseUrl: 'https://api.example.com:8443',
    apiKeyConfigured: true, headerNames: ['accept', 'x-api-token'], filesystemPolicy: { allowedPathCount: 2 }, session: { runtimeLive: true, turnLive: false },
  });
  assert.doesNotMatch(JSON.stringify(v), /SECRET|cred-/);
  assert.equal(projectAgent(agent('mem_y', 'command', { apiKey: '', enabled: false }), idle).apiKeyConfigured, false);
  assert.equal(projectAgent(agent('mem_y', 'command', { enabled: false }), idle).enabled, false);
  assert.equal(safeBaseUrl('not a url'), undefined);
  assert.equal(safeBaseUrl('file:///etc/passwd'), undefined);
  assert.equal(safeBaseUrl('http://h/'), 'http://h');
  assert.equal(safeBaseUrl('https://h:8443/app;jsessionid=SECRET/v1'), 'https://h:8443');
  assert.equal(normalizeHeaderNames(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`h${i}`, 'v']))).length, 32);
  assert.equal(projectAgent(agent('mem_z', 'command', { allowedPaths: Array.from({ length: 5000 }, (_, i) => `/p${i}`) }), idle).filesystemPolicy.allowedPathCount, 1000);
});

test('get of an unknown agent is not_found and names nothing', () => {
  const s = setup(1);
  assert.throws(() => s.idx.get('mem_nope'), code('not_found'));
  assert.equal(s.idx.get('mem_000').agentId, 'mem_000');
  s.done();
});

test('a cursor is bound to its owning profile, and any filter (even a 128-character query of escapes) keeps it under the 1024-character bound', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agidx-'));
  const store = new ProfileStore(dir);
  const key = Buffer.alloc(32, 1);
  const mine = new AgentIndex({ store, live: () => idle, cursorKey: key, owner: 'mem_alice' });
  const query = '\u0001'.repeat(128);
  for (let i = 0; i < 3; i++) mine.add(agent(`mem_${i}`, 'command', { name: `${query}${i}` }));
  const p = mine.page({ limit: 1, filters: { query } });
  assert.ok(p.nextCursor!.length <= 1024, `cursor is ${p.nextCursor!.length} characters`);
  assert.equal(mine.page({ limit: 1, cursor: p.nextCursor!, filters: { query } }).agents.length, 1);
  const theirs = new AgentIndex({ store, live: () => idle, cursorKey: key, owner: 'mem_bob' });
  assert.throws(() => theirs.page({ cursor: p.nextCursor!, filters: { query } }), (e: any) => e.code === 'validation_failed' && /another owner/.test(e.message));
  rmSync(dir, { recursive: true, force: true });
});

test('the profile store loads only its owner\'s profiles, adopts owner-less ones, and refuses a file whose name is not its id', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agidx-'));
  const put = (file: string, p: AgentProfile) => {
    writeFileSync(join(dir, file), JSON.stringify(p));
    chmodSync(join(dir, file), 0o600);
  };
  put('mem_a.json', agent('mem_a', 'command', { owner: 'mem_alice' }));
  put('mem_b.json', agent('mem_b', 'command', { owner: 'mem_bob' }));
  put('mem_c.json', agent('mem_c'));
  put('mem_x.json', agent('../mem_y', 'command', { owner: 'mem_alice' }));
  const alice = new ProfileStore(dir, 'mem_alice');
  assert.deepEqual(alice.ids(), ['mem_a', 'mem_c']);
  assert.equal(alice.get('mem_c')!.owner, 'mem_alice');
  assert.equal(alice.find('n-mem_b'), undefined);
  assert.deepEqual(new ProfileStore(dir, 'mem_bob').ids(), ['mem_b', 'mem_c']);
  rmSync(dir, { recursive: true, force: true });
});
