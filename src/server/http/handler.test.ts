// Tests the server's HTTP pipeline with raw requests: strict bodies, aliases, envelopes, body cap, idempotent replay/422/409.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import fc from 'fast-check';
import { requestHash } from '../idempotency.js';
import { hasDotSegment } from './handler.js';
import { startTestServer, type TestServer } from '../../domains/test-server.js';

let t: TestServer;

before(async () => {
  t = await startTestServer();
});
after(async () => t.stop());

async function raw(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; json: any }> {
  const res = await fetch(t.server.url + path, {
    method,
    headers: { authorization: `Bearer ${t.ownerCredential}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body } : {}),
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) };
}

async function taskCount(): Promise<number> {
  let n = 0;
  let cursor: string | undefined;
  for (;;) {
    const p = await t.owner.tasks.list({ limit: 100, ...(cursor ? { cursor } : {}) });
    n += p.tasks.length;
    if (!p.nextCursor) return n;
    cursor = p.nextCursor;
  }
}

/** A request with the path exactly as given (fetch would normalize dot segments away before sending). */
function rawPath(method: string, path: string): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const u = new URL(t.server.url);
    const req = request({ hostname: u.hostname, port: u.port, method, path, headers: { authorization: `Bearer ${t.ownerCredential}` } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('dot segments and off-grammar ids in a path are not_found, never another route (failed before: /v1/tasks/. listed tasks)', async () => {
  for (const p of ['/v1/tasks/.', '/v1/tasks/..', '/v1/tasks/%2e', '/v1/tasks/%2E%2e', '/v1/reviews/./resolve', '/v1/tasks/a.b', '/v1/tasks/a:b']) {
    const r = await rawPath('GET', p);
    assert.equal(r.status, 404, p);
    assert.equal(r.json.error.code, 'not_found', p);
  }
  assert.equal((await rawPath('GET', '/v1/tasks')).status, 200);
  // The client refuses such ids itself, before any request.
  await assert.rejects(t.owner.tasks.get({ taskId: '..' }), (e: { code?: string }) => e.code === 'validation_failed');
  await assert.rejects(t.owner.reviews.resolve({ reviewId: '.' }), (e: { code?: string }) => e.code === 'validation_failed');
});

test('GET /v1/server needs no auth and carries the ServerInfo envelope', async () => {
  const res = await fetch(t.server.url + '/v1/server');
  const env = await res.json();
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(env.data).sort(), ['serverId', 'version', 'workspaceId']);
  assert.equal(env.ok, true);
});

test('malformed JSON, unknown fields, wrong types and oversized bodies are typed errors with no state change', async () => {
  const before = await taskCount();
  const bad = await raw('POST', '/v1/tasks', '{"title": ');
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.json.ok, false);
  assert.equal(bad.json.error.code, 'invalid_input');
  const unknown = await raw('POST', '/v1/tasks', JSON.stringify({ title: 'x', priority: 'high' }));
  assert.equal(unknown.status, 422);
  assert.equal(unknown.json.error.code, 'validation_failed');
  assert.match(unknown.json.error.message, /priority/);
  const wrongType = await raw('POST', '/v1/tasks', JSON.stringify({ title: 5 }));
  assert.equal(wrongType.json.error.code, 'validation_failed');
  const empty = await raw('POST', '/v1/tasks', '');
  assert.equal(empty.json.error.code, 'invalid_input');
  const big = await raw('POST', '/v1/tasks', JSON.stringify({ title: 'x', description: 'y'.repeat(1024 * 1024) }));
  assert.equal(big.status, 413);
  assert.equal(big.json.error.code, 'payload_too_large');
  const notJson = await raw('POST', '/v1/tasks', JSON.stringify({ title: 'x' }), { 'content-type': 'text/plain' });
  assert.equal(notJson.json.error.code, 'invalid_input');
  const unknownQuery = await raw('GET', '/v1/tasks?colour=red');
  assert.equal(unknownQuery.json.error.code, 'validation_failed');
  assert.equal(await taskCount(), before);
  const noRoute = await raw('GET', '/v1/nope');
  assert.equal(noRoute.status, 404);
  assert.equal(noRoute.json.error.code, 'not_found');
});

test('a __proto__ key, a NUL or a lone surrogate in a body is invalid_input on both engines and stores nothing; big numbers are typed errors (failed before: __proto__ smuggled a task title, NUL was a 500 on PostgreSQL, a lone surrogate was stored as U+FFFD)', async () => {
  const before = await taskCount();
  const messages = async () => (await t.owner.messages.list({ target: 'channel:general', limit: 100 })).messages.length;
  const beforeMessages = await messages();
  const cases: Array<[string, string, RegExp]> = [
    ['/v1/tasks', '{"__proto__":{"title":"smuggled"}}', /"__proto__" is not allowed/],
    ['/v1/tasks', '{"title":"t","description":"x","\\u005f_proto__":{"assigneeId":"mem_x"}}', /"__proto__" is not allowed/],
    ['/v1/tasks', '{"title":"a\\u0000b"}', /U\+0000/],
    ['/v1/messages', '{"target":"channel:general","content":"a\\u0000b"}', /U\+0000/],
    ['/v1/messages', '{"target":"channel:general","content":"a\\ud800b"}', /lone surrogate/],
    ['/v1/messages', `{"target":"channel:general","content":"x","attachmentIds":${'['.repeat(10_000)}"\\u0000"${']'.repeat(10_000)}}`, /U\+0000/],
  ];
  for (const [path, body, re] of cases) {
    const r = await raw('POST', path, body);
    assert.equal(r.status, 400, r.text.slice(0, 200));
    assert.equal(r.json.error.code, 'invalid_input');
    assert.match(r.json.error.message, re);
  }
  const deep = await raw('POST', '/v1/messages', `{"target":"channel:general","content":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
  assert.equal(deep.json.error.code, 'validation_failed');
  const task = await t.owner.tasks.create({ title: 'numbers' });
  for (const n of ['1e400', '9007199254740993', '-0', '1.5']) {
    const r = await raw('PATCH', `/v1/tasks/${task.id}`, `{"expectedRevision":${n},"title":"x"}`);
    assert.equal(r.json.error.code, 'validation_failed', n);
  }
  assert.equal((await t.owner.tasks.get({ taskId: task.id })).title, 'numbers');
  assert.equal(await taskCount(), before + 1);
  assert.equal(await messages(), beforeMessages);
  assert.equal(({} as Record<string, unknown>).title, undefined);
});

test('snake_case aliases are accepted and never echoed; giving both spellings is invalid', async () => {
  const made = await raw('POST', '/v1/tasks', JSON.stringify({ title: 'aliased', assignee_id: t.ownerId }));
  assert.equal(made.status, 200);
  assert.equal(made.json.data.assigneeId, t.ownerId);
  assert.ok(!made.text.includes('assignee_id'));
  const upd = await raw('PATCH', `/v1/tasks/${made.json.data.id}`, JSON.stringify({ expected_revision: 1, title: 'renamed' }));
  assert.equal(upd.json.data.title, 'renamed');
  assert.ok(!upd.text.includes('expected_revision'));
  const both = await raw('POST', '/v1/tasks', JSON.stringify({ title: 'x', assigneeId: t.ownerId, assignee_id: t.ownerId }));
  assert.equal(both.json.error.code, 'invalid_input');
  const q = await raw('GET', `/v1/tasks?assignee_id=${t.ownerId}&limit=5`);
  assert.ok(q.json.data.tasks.every((x: { assigneeId: string }) => x.assigneeId === t.ownerId));
});

test('idempotent replay returns the identical stored response; a different body is 422; headers must agree', async () => {
  const body = JSON.stringify({ title: 'once' });
  const before = await taskCount();
  const a = await raw('POST', '/v1/tasks', body, { 'idempotency-key': 'k-1' });
  const b = await raw('POST', '/v1/tasks', body, { 'idempotency-key': 'k-1', 'x-request-id': 'k-1' });
  assert.equal(a.status, 200);
  assert.equal(b.status, a.status);
  assert.equal(b.text, a.text);
  assert.equal(await taskCount(), before + 1);
  const c = await raw('POST', '/v1/tasks', JSON.stringify({ title: 'twice' }), { 'idempotency-key': 'k-1' });
  assert.equal(c.status, 422);
  assert.equal(c.json.error.code, 'idempotency_conflict');
  const d = await raw('POST', '/v1/tasks', body, { 'idempotency-key': 'k-2', 'x-request-id': 'k-3' });
  assert.equal(d.status, 400);
  assert.equal(d.json.error.code, 'invalid_input');
  const e = await raw('POST', '/v1/tasks', body, { 'idempotency-key': 'has space' });
  assert.equal(e.json.error.code, 'invalid_input');
  assert.equal(await taskCount(), before + 1);
  // Keys are per member and per route: the same key on another route is a different request (422), not a replay.
  const f = await raw('POST', '/v1/reviews', JSON.stringify({ target: `task:${a.json.data.id}`, verdict: 'approve', body: 'ok' }), { 'idempotency-key': 'k-1' });
  assert.equal(f.json.error.code, 'idempotency_conflict');
});

test('validation failures and refused mutations are not stored: the key stays usable', async () => {
  const v = await raw('POST', '/v1/tasks', JSON.stringify({ title: '' }), { 'idempotency-key': 'k-v' });
  assert.equal(v.json.error.code, 'validation_failed');
  const ok = await raw('POST', '/v1/tasks', JSON.stringify({ title: 'fine' }), { 'idempotency-key': 'k-v' });
  assert.equal(ok.status, 200);
  const task = ok.json.data;
  const refused = await raw('POST', `/v1/tasks/${task.id}/transitions`, JSON.stringify({ transition: 'complete' }), { 'idempotency-key': 'k-t' });
  assert.equal(refused.json.error.code, 'conflict');
  await t.owner.tasks.transition({ taskId: task.id, transition: 'start' });
  const retried = await raw('POST', `/v1/tasks/${task.id}/transitions`, JSON.stringify({ transition: 'complete' }), { 'idempotency-key': 'k-t' });
  assert.equal(retried.json.data.status, 'done');
});

test('a key still in flight (claimed by another server process on the same database) answers 409 conflict', async () => {
  const body = { title: 'in flight' };
  // Another process sharing the database has claimed the key and not finished.
  const hash = requestHash('POST', '/v1/tasks', body);
  await t.runSql("INSERT INTO idempotency_receipts (member_id, key, request_hash, state, created_at) VALUES (?, 'k-busy', ?, 'pending', ?)", [t.ownerId, hash, Date.now()]);
  const before = await taskCount();
  const r = await raw('POST', '/v1/tasks', JSON.stringify(body), { 'idempotency-key': 'k-busy' });
  assert.equal(r.status, 409);
  assert.equal(r.json.error.code, 'conflict');
  assert.equal(await taskCount(), before);
});

test('error bodies never carry the credential', async () => {
  const r = await raw('GET', '/v1/me', undefined, { authorization: 'Bearer ats_notarealcredential' });
  assert.equal(r.status, 403);
  assert.ok(!r.text.includes('notarealcredential'));
  assert.equal(r.json.error.code, 'denied');
});

test('concurrent requests with one key create exactly one task: the others replay it or see 409 in flight', async () => {
  const before = await taskCount();
  const results = await Promise.allSettled(Array.from({ length: 8 }, () => t.owner.tasks.create({ title: 'raced' }, { idempotencyKey: 'k-race' })));
  const ok = results.filter((r): r is PromiseFulfilledResult<Awaited<ReturnType<typeof t.owner.tasks.create>>> => r.status === 'fulfilled');
  assert.ok(ok.length >= 1);
  assert.ok(ok.every((r) => r.value.id === ok[0]!.value.id), 'every success is the same task');
  for (const r of results) if (r.status === 'rejected') assert.equal((r.reason as { code: string }).code, 'conflict');
  assert.equal(await taskCount(), before + 1);
});

test('many concurrent mutations through one server all commit', async () => {
  const before = await taskCount();
  const made = await Promise.all(Array.from({ length: 40 }, (_, i) => t.owner.tasks.create({ title: `parallel ${i}` })));
  assert.equal(new Set(made.map((x) => x.id)).size, 40);
  assert.equal(await taskCount(), before + 40);
});

test('hasDotSegment: its fast path (no `.` and no `%`) answers as the segment-by-segment check does, for any path', () => {
  const slow = (raw: string) => raw.split(/[?#]/, 1)[0]!.split('/').some((p) => /^(\.|%2e){1,2}$/i.test(p));
  fc.assert(fc.property(fc.array(fc.constantFrom('/', '.', '%', '2', 'e', 'E', 'a', '?', '#'), { maxLength: 24 }).map((c) => c.join('')), (raw) => hasDotSegment(raw) === slow(raw)), { numRuns: 2000 });
  assert.equal(hasDotSegment('/v1/tasks/%2E%2e'), true);
  assert.equal(hasDotSegment('/v1/tasks/a?x=..'), false);
});
