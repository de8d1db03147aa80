// Tests that one action declaration yields its descriptor, its inventory row and a handler that makes exactly its call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { Strict, mutationSelectors } from '../../catalog/schemas.js';
import { endpoints } from '../../shared/endpoint.js';
import { systemClock } from '../../shared/clock.js';
import type { CallOptions } from '../../server-client/send.js';
import { applied, declaredActions, execCall, execList } from './declare.js';

const X = endpoints({
  make: { method: 'POST', path: '/v1/things', body: Strict({ name: Type.String() }), output: Type.Unsafe<{ id: string; name: string; revision: number }>() },
  list: { method: 'GET', path: '/v1/things', query: Type.Object({ kind: Type.Optional(Type.String()), limit: Type.Optional(Type.Integer()), cursor: Type.Optional(Type.String()) }), output: Type.Unsafe<{ things: { id: string; secret: string }[]; hasMore: boolean; nextCursor?: string }>() },
});

const make = execCall({
  domain: 'thing',
  action: 'make',
  summary: 'Make a thing.',
  input: Strict({ name: Type.String(), ...mutationSelectors }),
  output: Strict({ thing: Strict({ id: Type.String() }) }),
  example: { name: 'a' },
  risk: 'write',
  resultPolicy: 'mutation',
  overBudget: applied('agentteam exec thing get'),
  call: X.make,
  result: (t) => ({ thing: { id: t.id } }),
  facts: (t) => ({ selectors: { thingId: t.id }, revision: t.revision }),
});
const list = execList({
  domain: 'thing',
  action: 'list',
  summary: 'List things.',
  items: 'things',
  item: Strict({ id: Type.String() }),
  filters: { kind: Type.Optional(Type.String()) },
  example: { limit: 5 },
  overBudget: { hint: 'Smaller page.', next: 'agentteam exec thing list' },
  call: X.list,
  project: (t: { id: string }) => ({ id: t.id }),
});

function ctxWith(calls: unknown[], key?: string) {
  const api = {
    make: async (i: unknown, o?: CallOptions) => (calls.push(['make', i, o?.idempotencyKey]), { id: 'thg1', name: 'a', revision: 2 }),
    list: async (i: unknown) => (calls.push(['list', i]), { things: [{ id: 'thg1', secret: 's' }], hasMore: true, nextCursor: 'c2' }),
  };
  return { api, clock: systemClock, signal: new AbortController().signal, idempotencyKey: key };
}

test('the declaration yields the descriptor and the inventory row', () => {
  const { descriptors, inventory, actions } = declaredActions([make, list]);
  assert.deepEqual(Object.keys(descriptors[0]!), ['domain', 'action', 'summary', 'input', 'output', 'example', 'risk', 'resultPolicy']);
  assert.deepEqual([descriptors[1]!.risk, descriptors[1]!.resultPolicy], ['read', 'cursor']);
  assert.deepEqual(Object.keys(descriptors[1]!.input.properties), ['limit', 'cursor', 'filters']);
  assert.deepEqual(Object.keys(descriptors[1]!.output.properties), ['things', 'hasMore', 'nextCursor']);
  assert.deepEqual(inventory[1], { domain: 'thing', action: 'list', risk: 'read', resultPolicy: 'cursor', hint: 'Smaller page.', next: 'agentteam exec thing list' });
  assert.match(inventory[0]!.hint, /applied/);
  assert.equal(actions[0]!.descriptor, descriptors[0]);
});

test('the derived handlers send the input without its selectors, the filters as query, and project the answer', async () => {
  const calls: unknown[] = [];
  const m = await make.bound.handler({ name: 'a', idempotencyKey: 'k1', requestId: 'k1' }, ctxWith(calls, 'k1'));
  assert.deepEqual(m, { data: { thing: { id: 'thg1' } }, mutation: { selectors: { thingId: 'thg1' }, revision: 2 } });
  const l = await list.bound.handler({ limit: 5, cursor: 'c1', filters: { kind: 'k' } }, ctxWith(calls));
  assert.deepEqual(l, { data: { things: [{ id: 'thg1' }], hasMore: true, nextCursor: 'c2' } });
  assert.deepEqual(calls, [
    ['make', { name: 'a' }, 'k1'],
    ['list', { kind: 'k', limit: 5, cursor: 'c1' }],
  ]);
});
