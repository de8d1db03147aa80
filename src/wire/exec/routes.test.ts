// Tests the Exec route pipeline end to end on loopback: real server, real RuntimeAuthorizationStore, real ServerClient.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { builtinActions, builtinCatalog } from '../../domains/registry.js';
import { projectTask } from '../../domains/task/project.js';
import type { ServerApi } from '../../server-client/api.js';
import { binderFor, type BoundAction } from './action.js';
import { callServer } from './idempotency.js';
import { Strict } from '../../catalog/schemas.js';
import { createLogger, RateLimitedLogger } from '../../shared/log.js';
import { FakeClock } from '../../shared/clock.js';
import { DENIED_BODY } from '../http/guard.js';
import { Router } from '../http/router.js';
import { request } from 'node:http';
import { raw, startExecHarness, type ExecHarness, type Extra } from '../../domains/test-exec.js';
import { registerExecRoutes } from './routes.js';

/** Probe actions have no ServerApi group, so they receive the whole API. */
const bind = binderFor<ServerApi>();

const bigRead = {
  domain: 'probe', action: 'big', summary: 'Returns a large read.', risk: 'read', resultPolicy: 'bounded',
  input: Strict({ bytes: Type.Integer({ minimum: 0, maximum: 200000 }) }), output: Strict({ blob: Type.String() }), example: { bytes: 10 },
} as const;
const bigWrite = {
  domain: 'probe', action: 'bigwrite', summary: 'Creates a task, returns a large result.', risk: 'write', resultPolicy: 'mutation',
  input: Strict({ title: Type.String(), idempotencyKey: Type.Optional(Type.String()) }), output: Strict({ blob: Type.String(), taskId: Type.String() }), example: { title: 't' },
} as const;
const extras: Extra[] = [
  {
    descriptor: bigRead,
    row: { domain: 'probe', action: 'big', risk: 'read', resultPolicy: 'bounded', hint: 'ask for fewer bytes', next: 'agentteam exec probe big \'{"bytes":10}\'' },
    action: bind(bigRead, async (input) => ({ data: { blob: 'r'.repeat(input.bytes) } })) as unknown as BoundAction,
  },
  {
    descriptor: bigWrite,
    row: { domain: 'probe', action: 'bigwrite', risk: 'write', resultPolicy: 'mutation', hint: 'the change was applied', next: 'agentteam exec task get' },
    action: bind(bigWrite, async (input, ctx) => {
      const t = await callServer(ctx, (o) => ctx.api.tasks.create({ title: input.title }, o));
      return { data: { blob: 'w'.repeat(70_000), taskId: projectTask(t).id }, mutation: { selectors: { taskId: t.id }, revision: t.revision } };
    }) as unknown as BoundAction,
  },
];

const waitAction = {
  domain: 'probe', action: 'wait', summary: 'Waits until the test lets it finish.', risk: 'read', resultPolicy: 'narrow',
  input: Strict({}), output: Strict({ done: Type.Boolean() }), example: {},
} as const;
function waitingExtra(entered: () => void, release: Promise<void>): Extra {
  return {
    descriptor: waitAction,
    row: { domain: 'probe', action: 'wait', risk: 'read', resultPolicy: 'narrow', hint: 'n/a', next: 'n/a' },
    action: bind(waitAction, async () => {
      entered();
      await release;
      return { data: { done: true } };
    }) as unknown as BoundAction,
  };
}

let h: ExecHarness;
before(async () => {
  h = await startExecHarness(extras, { bodyDeadlineMs: 300 });
});
after(async () => {
  await h.stop();
});

test('task lifecycle through the Exec routes', async () => {
  const created = await h.post('task', 'create', { title: 'Ship it', idempotencyKey: 'create-1' });
  assert.equal(created.status, 200, created.raw);
  assert.equal(created.body.ok, true);
  const task = created.body.data.task;
  assert.equal(task.title, 'Ship it');
  assert.deepEqual(Object.keys(created.body.data), ['task']);

  const again = await h.post('task', 'create', { title: 'Ship it', idempotencyKey: 'create-1' });
  assert.equal(again.body.data.task.id, task.id, 'same idempotency key, same task');

  for (const action of ['start', 'complete']) {
    const r = await h.post('task', action, { taskId: task.id });
    assert.equal(r.status, 200, r.raw);
  }
  const got = await h.post('task', 'get', { taskId: task.id });
  assert.equal(got.body.data.task.status, 'done');

  const stale = await h.post('task', 'update', { taskId: task.id, expectedRevision: 1, title: 'x' });
  assert.equal(stale.status, 409);
  assert.equal(stale.body.error.code, 'conflict');

  const comment = await h.post('task', 'comment', { taskId: task.id, body: 'done and dusted' });
  assert.equal(comment.body.data.comment.taskId, task.id);

  const review = await h.post('review', 'add', { target: `task:${task.id}`, verdict: 'approve', body: 'LGTM' });
  assert.equal(review.status, 200, review.raw);
  const reviewId = review.body.data.review.id;
  const resolved = await h.post('review', 'resolve', { reviewId });
  assert.equal(resolved.body.data.review.status, 'resolved');
  const listed = await h.post('review', 'list', { filters: { target: `task:${task.id}` } });
  assert.equal(listed.body.data.reviews.length, 1);
  assert.equal(listed.body.data.hasMore, false);
  assert.equal('nextCursor' in listed.body.data, false);
});

test('task list pages with hasMore and nextCursor only when another page exists', async () => {
  await h.post('task', 'create', { title: 'a' });
  await h.post('task', 'create', { title: 'b' });
  const p1 = await h.post('task', 'list', { limit: 1 });
  assert.equal(p1.status, 200, p1.raw);
  assert.equal(p1.body.data.tasks.length, 1);
  assert.equal(p1.body.data.hasMore, true);
  assert.equal(typeof p1.body.data.nextCursor, 'string');
  const p2 = await h.post('task', 'list', { limit: 1, cursor: p1.body.data.nextCursor });
  assert.notEqual(p2.body.data.tasks[0].id, p1.body.data.tasks[0].id);
  const bad = await h.post('task', 'list', { limit: 1, cursor: 'garbage' });
  assert.equal(bad.body.ok, false);
  assert.equal(bad.body.error.code, 'validation_failed');
});

test('pipeline failures are typed and happen before dispatch', async () => {
  const unknownField = await h.post('task', 'get', { taskId: 'tsk_1', bogus: true });
  assert.equal(unknownField.status, 422);
  assert.equal(unknownField.body.error.code, 'validation_failed');
  assert.match(unknownField.body.error.message, /^\/bogus: /);

  const notJson = await h.post('task', 'get', '{"taskId":');
  assert.equal(notJson.status, 400);
  assert.equal(notJson.body.error.code, 'invalid_input');

  const unknown = await h.post('task', 'explode', {});
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.error.code, 'not_found');

  const wrongType = await raw(`${h.baseUrl}/task/get`, { method: 'POST', headers: { 'content-type': 'text/plain', authorization: `Bearer ${h.token}` }, body: '{"taskId":"x"}' });
  assert.equal(wrongType.status, 400);

  const badSelector = await h.post('task', 'create', { title: 'x', requestId: 'has spaces' });
  assert.equal(badSelector.status, 400);
  assert.equal(badSelector.body.error.code, 'invalid_input');
  const dual = await h.post('task', 'create', { title: 'x', requestId: 'a', idempotencyKey: 'b' });
  assert.equal(dual.body.error.code, 'invalid_input');
  const headerMismatch = await h.post('task', 'create', { title: 'x', idempotencyKey: 'a' }, { 'idempotency-key': 'b' });
  assert.equal(headerMismatch.body.error.code, 'invalid_input');

  const before = await h.post('task', 'list', { limit: 100 });
  const tooBig = await h.post('task', 'create', JSON.stringify({ title: 'x', description: 'd'.repeat(1024 * 1024) }));
  assert.equal(tooBig.status, 413);
  assert.equal(tooBig.body.error.code, 'payload_too_large');
  const afterList = await h.post('task', 'list', { limit: 100 });
  assert.equal(afterList.body.data.tasks.length, before.body.data.tasks.length, 'nothing was created by rejected calls');
});

test('authentication failures are the one generic 403 body', async () => {
  const wrong = await raw(`${h.baseUrl}/task/list`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer atx_wrong' }, body: '{}' });
  assert.equal(wrong.status, 403);
  assert.equal(wrong.raw, DENIED_BODY.toString());
  const otherAgent = h.baseUrl.replace(/agents\/[^/]+$/, 'agents/agt_other');
  const mismatch = await raw(`${otherAgent}/task/list`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${h.token}` }, body: '{}' });
  assert.equal(mismatch.status, 403);
  assert.equal(mismatch.raw, DENIED_BODY.toString());
});

test('the catalog route returns the token\'s RuntimeCatalog', async () => {
  const r = await raw(`${h.baseUrl}/catalog`, { method: 'GET', headers: { authorization: `Bearer ${h.token}` } });
  assert.equal(r.status, 200);
  const body = JSON.parse(r.raw);
  assert.equal(body.data.version, h.auth.info.catalog.version);
  assert.equal(body.data.actions.length, h.auth.info.catalog.actions.size);
  assert.equal(body.data.actions[0].input, undefined, 'the merged catalog is an index without schemas');
  // Every domain's full descriptors come back within the result budget (so do the index's, above).
  for (const domain of new Set([...h.auth.info.catalog.actions.values()].map((d) => d.domain))) {
    const one = await raw(`${h.baseUrl}/catalog?domain=${domain}`, { method: 'GET', headers: { authorization: `Bearer ${h.token}` } });
    assert.equal(one.status, 200, domain);
    const acts = JSON.parse(one.raw).data.actions;
    assert.ok(acts.length > 0 && acts.every((a: { domain: string; input?: unknown }) => a.domain === domain && a.input !== undefined), domain);
  }
  for (const q of ['?domain=nope', '?other=1']) assert.equal((await raw(`${h.baseUrl}/catalog${q}`, { method: 'GET', headers: { authorization: `Bearer ${h.token}` } })).status, 422, q);
});

test('over-budget read is result_budget_exceeded with the inventory hint; within budget is unchanged', async () => {
  const small = await h.post('probe', 'big', { bytes: 100 });
  assert.deepEqual(small.body, { ok: true, data: { blob: 'r'.repeat(100) } });
  const big = await h.post('probe', 'big', { bytes: 100_000 });
  assert.equal(big.status, 422);
  assert.equal(big.body.error.code, 'result_budget_exceeded');
  assert.equal(big.body.error.hint, 'ask for fewer bytes');
  assert.ok(big.raw.length < 2000, 'no data in the error');
});

test('over-budget mutation returns a receipt whose retrieval command reads the applied change', async () => {
  const r = await h.post('probe', 'bigwrite', { title: 'receipt me', idempotencyKey: 'bw-1' });
  assert.equal(r.body.error.code, 'result_budget_exceeded');
  const receipt = r.body.error.metadata.mutation_receipt;
  assert.equal(r.body.error.metadata.mutation_applied, true);
  assert.equal(receipt.idempotencyKey, 'bw-1');
  assert.match(receipt.retrieval, /^agentteam exec task get '\{"taskId":"[^"]+"\}'$/);
  const input = JSON.parse(receipt.retrieval.slice('agentteam exec task get '.length).slice(1, -1));
  const got = await h.post('task', 'get', input);
  assert.equal(got.body.data.task.title, 'receipt me');
});

test('a revoked authorization gets the generic 403 and nothing is dispatched', async () => {
  const other = await startExecHarness();
  try {
    const before = await other.agentApi.tasks.list({ limit: 100 });
    await other.kit.store.revoke(other.auth.info.id, 'exit');
    const r = await other.post('task', 'create', { title: 'after revoke' });
    assert.equal(r.status, 403);
    assert.equal(r.raw, DENIED_BODY.toString());
    const afterList = await other.agentApi.tasks.list({ limit: 100 });
    assert.equal(afterList.tasks.length, before.tasks.length);
  } finally {
    await other.stop();
  }
});

test('route registration fails when a handler and the catalog disagree', () => {
  const log = createLogger({ name: 'x' });
  const deps = { gate: { authenticate: () => ({ ok: false as const, reason: 'missing' as const }), acquire: () => null }, diag: new RateLimitedLogger(log, new FakeClock()), log, apiFor: () => { throw new Error('unused'); }, catalog: builtinCatalog() };
  const all = builtinActions();
  assert.throws(() => registerExecRoutes(new Router(), { ...deps, actions: all.slice(1) }), /descriptor task\/create has no handler/);
  assert.throws(() => registerExecRoutes(new Router(), { ...deps, actions: [...all, extras[0]!.action] }), /handler probe\/big has no catalog descriptor/);
  assert.throws(() => registerExecRoutes(new Router(), { ...deps, actions: [...all, all[0]!] }), /duplicate handler/);
  assert.doesNotThrow(() => registerExecRoutes(new Router(), { ...deps, actions: all }));
});

test('success is not published when the authorization is revoked while the handler runs', async () => {
  let entered!: () => void;
  const inHandler = new Promise<void>((r) => (entered = r));
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const w = await startExecHarness([waitingExtra(entered, released)]);
  try {
    const pending = w.post('probe', 'wait', {});
    await inHandler;
    const revoked = w.kit.store.revoke(w.auth.info.id, 'exit');
    release();
    const r = await pending;
    assert.equal(r.status, 403);
    assert.equal(r.raw, DENIED_BODY.toString());
    await revoked;
  } finally {
    await w.stop();
  }
});

test('a body that does not arrive within the absolute deadline is 408 request_timeout and closes the connection', async () => {
  const r = await new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
    const req = request(`${h.baseUrl}/task/create`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${h.token}`, 'content-length': '100' } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
    });
    req.on('error', reject);
    req.write('{"title":"slow');
  });
  assert.equal(r.status, 408);
  assert.equal(JSON.parse(r.body).error.code, 'request_timeout');
  assert.equal(r.connection, 'close');
});
