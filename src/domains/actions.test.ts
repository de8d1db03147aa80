// Tests every domain's handlers against the real server (no HTTP in front), selector resolution, and the keyed one-time replay.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import type { ServerApi } from '../server-client/api.js';
import { ServerCallError } from '../server-client/client.js';
import { startTestServer, type TestServer } from '../server/test-helpers.js';
import { AppError } from '../shared/errors.js';
import { FakeClock } from '../shared/clock.js';
import { callServer, resolveIdempotencyKey } from '../wire/exec/idempotency.js';
import type { ActionContext, BoundAction } from '../wire/exec/action.js';
import { builtinActions } from './registry.js';

let ts: TestServer;
let api: ServerApi;
let otherId: string;
before(async () => {
  ts = await startTestServer();
  api = ts.client.as((await ts.owner.members.createAgent({ name: 'worker' })).credential);
  otherId = (await ts.owner.members.createAgent({ name: 'helper' })).agent.id;
});
after(async () => {
  await ts.stop();
});

const actions = new Map<string, BoundAction>(builtinActions().map((a) => [`${a.descriptor.domain} ${a.descriptor.action}`, a]));
/** A context carrying the whole ServerApi; run() hands each handler only its own domain's group, as the Exec route does. */
const ctx = (over: Partial<ActionContext<ServerApi>> = {}): ActionContext<ServerApi> => ({ api, clock: new FakeClock(), signal: new AbortController().signal, idempotencyKey: undefined, ...over });

/** Runs a handler and checks its data against the descriptor's own output schema. */
async function run(name: string, input: unknown, c = ctx()): Promise<any> {
  const a = actions.get(name) as BoundAction;
  assert.ok(a, name);
  assert.equal(Value.Check(a.descriptor.input, input), true, `${name} input`);
  const r = await a.handler(input as never, { ...c, api: (c.api as unknown as Record<string, unknown>)[a.apiKey!] });
  assert.equal(Value.Check(a.descriptor.output, r.data), true, `${name} output ${JSON.stringify(r.data)}`);
  return r;
}

test('every task action works against the real server and returns schema-valid compact output', async () => {
  const { data, mutation } = await run('task create', { title: 'T', description: 'D' });
  const id = data.task.id;
  assert.deepEqual(mutation, { selectors: { taskId: id }, revision: data.task.revision });
  assert.equal((await run('task assign', { taskId: id, assigneeId: otherId })).data.task.assigneeId, otherId);
  // Unassigned: the projection omits assigneeId rather than showing null.
  assert.equal('assigneeId' in (await run('task assign', { taskId: id, assigneeId: null })).data.task, false);
  assert.equal((await run('task start', { taskId: id })).data.task.status, 'in_progress');
  const blocked = (await run('task block', { taskId: id, reason: 'waiting' })).data.task;
  assert.equal(blocked.status, 'blocked');
  assert.equal(blocked.blockedReason, 'waiting');
  const restarted = (await run('task start', { taskId: id })).data.task;
  assert.equal(restarted.status, 'in_progress');
  assert.equal('blockedReason' in restarted, false);
  assert.equal((await run('task complete', { taskId: id })).data.task.status, 'done');
  assert.equal((await run('task reopen', { taskId: id })).data.task.status, 'open');
  const upd = (await run('task update', { taskId: id, expectedRevision: (await run('task get', { taskId: id })).data.task.revision, title: 'T2' })).data.task;
  assert.equal(upd.title, 'T2');
  assert.equal((await run('task cancel', { taskId: id, reason: 'no longer needed' })).data.task.status, 'canceled');
  const filtered = (await run('task list', { filters: { status: 'canceled' } })).data;
  assert.ok(filtered.tasks.some((t: { id: string }) => t.id === id));
  assert.ok(filtered.tasks.every((t: { status: string }) => t.status === 'canceled'));
  const item = filtered.tasks.find((t: { id: string }) => t.id === id);
  assert.deepEqual(Object.keys(item).sort(), ['description', 'id', 'revision', 'status', 'title'], 'a list item: no createdBy, no updatedAt, no nulls');
  // The exact projection of one task: no createdBy/createdAt, compact time, the ids and revision later calls need.
  const shown = (await run('task get', { taskId: id })).data.task;
  assert.deepEqual(Object.keys(shown).sort(), ['createdBy', 'description', 'id', 'revision', 'status', 'title', 'updatedAt']);
  assert.match(shown.updatedAt, /^\d{8}T\d{6}Z$/);
  assert.match(id, /^tsk_\d{15}$/);
  const comment = (await run('task comment', { taskId: id, body: 'see docs' })).data.comment;
  assert.deepEqual(Object.keys(comment).sort(), ['at', 'id', 'taskId']);
  await assert.rejects(run('task get', { taskId: 'tsk_missing' }), (e: AppError) => e.code === 'not_found');
});

test('every review action works against the real server', async () => {
  const task = (await run('task create', { title: 'R' })).data.task;
  const added = (await run('review add', { target: `task:${task.id}`, verdict: 'comment', body: 'note' })).data.review;
  assert.equal((await run('review get', { reviewId: added.id })).data.review.body, 'note');
  assert.equal((await run('review resolve', { reviewId: added.id })).data.review.status, 'resolved');
  // Open again: an open review carries no status (its schema: absent means open).
  assert.equal('status' in (await run('review reopen', { reviewId: added.id })).data.review, false);
  const page = (await run('review list', { limit: 1, filters: { target: `task:${task.id}`, status: 'open' } })).data;
  assert.deepEqual(page.reviews.map((r: { id: string }) => r.id), [added.id]);
  assert.equal(page.hasMore, false);
  assert.equal('nextCursor' in page, false);
});

test('selector resolution: one key from body or headers; malformed, oversized or disagreeing selectors are invalid_input', () => {
  assert.equal(resolveIdempotencyKey({ body: {}, headers: {} }), undefined);
  assert.equal(resolveIdempotencyKey({ body: { requestId: 'a:1' }, headers: {} }), 'a:1');
  assert.equal(resolveIdempotencyKey({ body: { requestId: 'k', idempotencyKey: 'k' }, headers: { idempotencyKey: 'k', requestId: 'k' } }), 'k');
  assert.equal(resolveIdempotencyKey({ body: {}, headers: { requestId: 'h' } }), 'h');
  const invalid = (src: Parameters<typeof resolveIdempotencyKey>[0]) => assert.throws(() => resolveIdempotencyKey(src), (e: AppError) => e.code === 'invalid_input');
  invalid({ body: { requestId: 'a', idempotencyKey: 'b' }, headers: {} });
  invalid({ body: { idempotencyKey: 'a' }, headers: { idempotencyKey: 'b' } });
  invalid({ body: {}, headers: { idempotencyKey: 'a', requestId: 'b' } });
  invalid({ body: { idempotencyKey: 'x'.repeat(129) }, headers: {} });
  invalid({ body: { idempotencyKey: 'white space' }, headers: {} });
  invalid({ body: { requestId: 42 }, headers: {} });
  invalid({ body: {}, headers: { idempotencyKey: 'a, b' } });
});

/** The real API, with a response lost to the network after the server applied the first createTask. */
function lossyApi(calls: { n: number }, kind: 'network' | 'timeout' = 'network'): ServerApi {
  const tasks = {
    ...api.tasks,
    create: async (...args: Parameters<ServerApi['tasks']['create']>) => {
      calls.n++;
      const r = await api.tasks.create(...args);
      if (calls.n === 1) throw new ServerCallError('upstream_unavailable', 'server response was cut off', kind);
      return r;
    },
  };
  return { ...api, tasks };
}

async function countTitled(title: string): Promise<number> {
  const page = await api.tasks.list({ limit: 100 });
  return page.tasks.filter((t) => t.title === title).length;
}

test('a keyed mutation is replayed once after a network failure and applies exactly once', async () => {
  const calls = { n: 0 };
  const r = await run('task create', { title: 'keyed', idempotencyKey: 'replay-1' }, ctx({ api: lossyApi(calls), idempotencyKey: 'replay-1' }));
  assert.equal(calls.n, 2);
  assert.equal(r.data.task.title, 'keyed');
  assert.equal(await countTitled('keyed'), 1);
});

test('natural-key mutations, timeouts and aborted calls are never retried', async () => {
  const plain = { n: 0 };
  await assert.rejects(run('task create', { title: 'unkeyed' }, ctx({ api: lossyApi(plain) })), (e: ServerCallError) => e.kind === 'network');
  assert.equal(plain.n, 1);
  const timeout = { n: 0 };
  await assert.rejects(run('task create', { title: 'timed out' }, ctx({ api: lossyApi(timeout, 'timeout'), idempotencyKey: 't-1' })));
  assert.equal(timeout.n, 1);
  const ac = new AbortController();
  ac.abort();
  let n = 0;
  await assert.rejects(
    callServer(ctx({ signal: ac.signal, idempotencyKey: 'a-1' }), async () => {
      n++;
      throw new ServerCallError('upstream_unavailable', 'server call aborted', 'network', { aborted: true });
    }),
  );
  assert.equal(n, 1);
});
