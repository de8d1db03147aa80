// Tests every domain's handlers against the real server (no HTTP in front), selector resolution, and the keyed one-time replay.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import type { ServerApi } from '../server-client/api.js';
import { ServerCallError } from '../server-client/client.js';
import { startTestServer, type TestServer } from './test-server.js';
import { AppError } from '../shared/errors.js';
import { NUMBERED_ID_RE } from '../shared/ids.js';
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
  // People by `name (kind)`, never a member id (the id task assign takes comes from workspace members).
  assert.equal(data.task.createdBy, 'worker (agent)');
  const assigned = (await run('task assign', { taskId: id, assigneeId: otherId })).data.task;
  assert.deepEqual([assigned.assignee, 'assigneeId' in assigned], ['helper (agent)', false]);
  assert.equal((await run('task get', { taskId: id })).data.task.assignee, 'helper (agent)', 'get reads the name back');
  const listedAssigned = (await run('task list', { filters: { assigneeId: otherId } })).data.tasks;
  assert.deepEqual(listedAssigned.map((t: { id: string; assignee: string }) => [t.id, t.assignee]), [[id, 'helper (agent)']], 'a list item names its assignee too');
  // Created with an assignee (one transaction, names read in it): the same projection.
  assert.equal((await run('task create', { title: 'pre-assigned', assigneeId: otherId })).data.task.assignee, 'helper (agent)');
  // Unassigned: the projection omits assignee rather than showing null.
  assert.equal('assignee' in (await run('task assign', { taskId: id, assigneeId: null })).data.task, false);
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
  // The exact projection of one task: no createdAt, no member id, compact time, the ids and revision later calls need.
  const shown = (await run('task get', { taskId: id })).data.task;
  assert.deepEqual(Object.keys(shown).sort(), ['createdBy', 'description', 'id', 'revision', 'status', 'title', 'updatedAt']);
  assert.equal(shown.createdBy, 'worker (agent)');
  assert.match(shown.updatedAt, /^\d{8}T\d{6}Z$/);
  assert.match(id, NUMBERED_ID_RE);
  const comment = (await run('task comment', { taskId: id, body: 'see docs' })).data.comment;
  assert.deepEqual(Object.keys(comment).sort(), ['at', 'id', 'taskId']);
  await assert.rejects(run('task get', { taskId: 'tsk_missing' }), (e: AppError) => e.code === 'not_found');
});

test('project and team views: the creator as name (kind), active status and empty fields omitted, list items without createdBy/updatedAt', async () => {
  const p = (await run('project create', { name: 'Docs' })).data.project;
  assert.deepEqual(Object.keys(p).sort(), ['createdBy', 'id', 'name', 'revision', 'updatedAt'], 'active: no status; no description');
  assert.equal(p.createdBy, 'worker (agent)');
  const archived = (await run('project archive', { projectId: p.id })).data.project;
  assert.equal(archived.status, 'archived');
  // Another creator: the owner (a Human) makes one; the agent reads it by the id the list showed.
  const byOwner = await ts.owner.projects.create({ name: 'Roadmap', description: 'What ships when.' });
  const listed = (await run('project list', { filters: { query: 'roadmap' } })).data.projects;
  assert.deepEqual(listed, [{ id: byOwner.id, name: 'Roadmap', revision: 1, description: 'What ships when.' }]);
  assert.equal((await run('project get', { projectId: listed[0]!.id })).data.project.createdBy, 'Owner (human)');
  assert.equal('status' in (await run('project unarchive', { projectId: p.id, expectedRevision: archived.revision })).data.project, false);

  const t = (await run('team create', { handle: `web${Date.now() % 100000}`, displayName: 'Web team' })).data.team;
  assert.deepEqual(Object.keys(t).sort(), ['createdBy', 'displayName', 'handle', 'id', 'revision', 'updatedAt']);
  assert.equal(t.createdBy, 'worker (agent)');
  // team add-member takes the memberId workspace members shows; team members shows the same field back.
  const helper = (await run('workspace members', { filters: { query: 'helper' } })).data.members[0];
  const added = (await run('team add-member', { teamId: t.id, memberId: helper.memberId })).data;
  assert.deepEqual(added, { teamId: t.id, member: { memberId: helper.memberId, name: 'helper', kind: 'agent' } });
  const members = (await run('team members', { teamId: t.id })).data.members;
  assert.deepEqual(members, [{ memberId: helper.memberId, name: 'helper', kind: 'agent' }]);
  assert.equal((await run('team remove-member', { teamId: t.id, memberId: members[0]!.memberId })).data.removed, true);
  const item = (await run('team list', { limit: 100 })).data.teams.find((x: { id: string }) => x.id === t.id);
  assert.deepEqual(item, { id: t.id, handle: t.handle, displayName: 'Web team', revision: 3 });
  assert.equal((await run('team get', { teamId: item.id })).data.team.revision, 3);
});

test('approval views show the subject as its bare id; request takes that form and the kind:<id> form for the same subject', async () => {
  const task = (await run('task create', { title: 'Ship' })).data.task;
  const a = (await run('approval request', { subject: `task:${task.id}`, reason: 'go live' })).data.approval;
  assert.equal(a.subject, task.id, 'the tsk_ prefix already says task');
  assert.equal('notify' in a, false, 'the decision goes to the subject: not repeated');
  // The shown form is taken back: a second request on the subject exactly as the list showed it.
  const shown = (await run('approval list', { filters: { status: 'pending' } })).data.approvals.find((x: { id: string }) => x.id === a.id);
  assert.equal(shown.subject, task.id);
  const b = (await run('approval request', { subject: shown.subject, reason: 'again' })).data.approval;
  assert.deepEqual([b.subject, 'notify' in b], [task.id, false]);
  assert.equal((await api.approvals.get({ approvalId: b.id })).subject, `task:${task.id}`, 'stored canonically: kind:<id>');
  // A Human decides by the shown id; the decision names the subject canonically in the task's discussion.
  assert.equal((await ts.owner.approvals.approve({ approvalId: b.id })).status, 'approved');
  const team = (await run('team create', { handle: `ops${Date.now() % 100000}`, displayName: 'Ops' })).data.team;
  const c = (await run('approval request', { subject: team.id, reason: 'new team', notify: `task:${task.id}` })).data.approval;
  assert.deepEqual([c.subject, c.notify], [team.id, `task:${task.id}`]);
  // A bare id whose prefix names no subject kind is invalid input; so is an unknown kind.
  for (const subject of ['msg_123', 'rev_1', 'deploy', 'task:', 'issue:tsk_1']) {
    const d = actions.get('approval request')!.descriptor;
    assert.equal(Value.Check(d.input, { subject, reason: 'x' }), false, subject);
    await assert.rejects(api.approvals.request({ subject, reason: 'x' }), (e: ServerCallError) => e.code === 'validation_failed', subject);
  }
  await assert.rejects(api.approvals.request({ subject: 'tsk_000000000000000', reason: 'x' }), (e: ServerCallError) => e.code === 'not_found');
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
