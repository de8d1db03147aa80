// Tests the client and routes derived from endpoint declarations: paths from checked ids, only declared query and body
// fields travel, bounds are checked before sending, and the server side hands the service one input whose path
// parameters no body can replace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { endpoints } from '../shared/endpoint.js';
import { bindRoutes, inputOf } from '../server/http/route.js';
import type { Actor } from '../server/context.js';
import { clientOf } from './derive.js';
import type { Call, Send } from './send.js';

const NOTE = { field: 'note', min: 1, chars: 10, bytes: 12 };
const X = endpoints({
  list: { method: 'GET', path: '/v1/things', query: Type.Object({ kind: Type.Optional(Type.String()), limit: Type.Optional(Type.Integer()) }), output: Type.Unsafe<{ things: string[] }>() },
  get: { method: 'GET', path: '/v1/things/{thingId}', output: Type.Unsafe<{ id: string }>() },
  annotate: { method: 'POST', path: '/v1/things/{thingId}/notes/{noteId}', body: Type.Object({ note: Type.String() }, { additionalProperties: false }), output: Type.Unsafe<{ ok: true }>(), bounds: { note: NOTE } },
});

function recorder(): { send: Send; calls: Call[] } {
  const calls: Call[] = [];
  const send = (async (c: Call) => (calls.push(c), { echoed: true })) as unknown as Send;
  return { send, calls };
}

test('the derived client fills the path from checked ids and sends only declared query and body fields', async () => {
  const { send, calls } = recorder();
  const api = clientOf(send, X);
  await api.list({ kind: 'a b', limit: 5 });
  await api.list();
  await api.annotate({ thingId: 'thg1', noteId: 'nte2', note: 'hi' });
  // An extra field in the input (a typed caller cannot write it; a cast one can) never reaches the body.
  await api.annotate({ thingId: 'thg1', noteId: 'nte2', note: 'x', smuggled: 1 } as never);
  assert.deepEqual(
    calls.map((c) => [c.method, c.path, c.body]),
    [
      ['GET', '/v1/things?kind=a+b&limit=5', undefined],
      ['GET', '/v1/things', undefined],
      ['POST', '/v1/things/thg1/notes/nte2', { note: 'hi' }],
      ['POST', '/v1/things/thg1/notes/nte2', { note: 'x' }],
    ],
  );
});

test('a path id outside the id grammar and an over-bound text are refused before anything is sent', async () => {
  const { send, calls } = recorder();
  const api = clientOf(send, X);
  for (const bad of ['..', 'a/b', '%2e%2e', '']) await assert.rejects(api.get({ thingId: bad }), (e: { code?: string }) => e.code === 'validation_failed', bad);
  await assert.rejects(api.annotate({ thingId: 'thg1', noteId: 'nte2', note: '"""""""' }), /note is \d+ bytes as JSON; the limit is 12 bytes/);
  await assert.rejects(api.annotate({ thingId: 'thg1', noteId: 'nte2', note: '   ' }), /note must not be blank/);
  assert.equal(calls.length, 0);
});

const actor = { id: 'mem1' } as Actor;

test('derived routes call the same-named service method with one input; an override wins; path parameters beat the body', async () => {
  const seen: unknown[] = [];
  const svc = {
    list: async (_a: Actor, i: unknown) => (seen.push(['list', i]), { things: [] }),
    annotate: async (a: Actor, i: unknown) => (seen.push(['annotate', a.id, i]), { ok: true }),
    fetchOne: async (_a: Actor, id: string) => (seen.push(['get', id]), { id }),
  };
  const routes = bindRoutes<typeof X, typeof svc>(X, { get: (s, a, i) => s.fetchOne(a, i.thingId) }, { annotate: { maxBody: 100 } });
  assert.deepEqual(
    routes.map((r) => [r.method, r.path, r.query, r.body ? 'body' : '-', r.maxBody]),
    [
      ['GET', '/v1/things', ['kind', 'limit'], '-', undefined],
      ['GET', '/v1/things/{thingId}', undefined, '-', undefined],
      ['POST', '/v1/things/{thingId}/notes/{noteId}', undefined, 'body', 100],
    ],
  );
  await routes[0]!.handle({ actor, params: {}, query: { kind: 'a', limit: '7' }, body: undefined }, svc);
  await routes[1]!.handle({ actor, params: { thingId: 'thg1' }, query: {}, body: undefined }, svc);
  await routes[2]!.handle({ actor, params: { thingId: 'thg1', noteId: 'nte2' }, query: {}, body: { note: 'n', thingId: 'thgEVIL' } }, svc);
  assert.deepEqual(seen, [
    ['list', { kind: 'a', limit: 7 }],
    ['get', 'thg1'],
    ['annotate', 'mem1', { note: 'n', thingId: 'thg1', noteId: 'nte2' }],
  ]);
});

test('an integer query parameter that is not digits is validation_failed, never NaN', () => {
  for (const limit of ['abc', '-1', '1e3', '1'.repeat(16)]) {
    assert.throws(() => inputOf(X.list, { actor, params: {}, query: { limit }, body: undefined }), (e: { code?: string }) => e.code === 'validation_failed', limit);
  }
});
