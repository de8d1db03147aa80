// End-to-end: every `approval` action, validation failure and denial through the real `agentteam exec` inside daemon-launched runtimes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runExecSteps, TestDaemon } from '../../../test/harness.js';
import { ownerApi } from '../../../test/turns-kit.js';

const d = new TestDaemon();
let a: Record<string, any>;
let b: Record<string, any>;
let c: Record<string, any>;
let aliceId: string;

before(async () => {
  await d.start();
  aliceId = (await d.addAgent('alice')).id;
  await d.addAgent('bob');
  a = await runExecSteps(d, 'alice', [
    { name: 'task', run: ['task', 'create'], input: { title: 'Deploy' } },
    { name: 'request', run: ['approval', 'request'], input: { subject: 'task:${task.data.task.id}', reason: 'Deploy to production', idempotencyKey: 'apr-e2e-1' } },
    { name: 'replay', run: ['approval', 'request'], input: { subject: 'task:${task.data.task.id}', reason: 'Deploy to production', idempotencyKey: 'apr-e2e-1' } },
    { name: 'keyReuse', run: ['approval', 'request'], input: { subject: 'task:${task.data.task.id}', reason: 'other', idempotencyKey: 'apr-e2e-1' } },
    { name: 'second', run: ['approval', 'request'], input: { subject: 'task:${task.data.task.id}', reason: 'Rotate keys', notify: 'task:${task.data.task.id}' } },
    { name: 'get', run: ['approval', 'get'], input: { approvalId: '${request.data.approval.id}' } },
    { name: 'list', run: ['approval', 'list'], input: { limit: 1, filters: { status: 'pending' } } },
    { name: 'list2', run: ['approval', 'list'], input: { limit: 1, cursor: '${list.data.nextCursor}', filters: { status: 'pending' } } },
    { name: 'listAll', run: ['approval', 'list'], input: {} },
    { name: 'approve', run: ['approval', 'approve'], input: { approvalId: '${request.data.approval.id}', note: 'self-approval' } },
    { name: 'reject', run: ['approval', 'reject'], input: { approvalId: '${request.data.approval.id}' } },
    // Cancel by the id the list page showed (the newest request is `second`).
    { name: 'cancel', run: ['approval', 'cancel'], input: { approvalId: '${list.data.approvals.0.id}' } },
    { name: 'cancelAgain', run: ['approval', 'cancel'], input: { approvalId: '${second.data.approval.id}' } },
    { name: 'badSubject', run: ['approval', 'request'], input: { subject: 'deploy', reason: 'x' } },
    { name: 'noReason', run: ['approval', 'request'], input: { subject: 'task:${task.data.task.id}' } },
    { name: 'longNote', run: ['approval', 'approve'], input: { approvalId: '${request.data.approval.id}', note: 'n'.repeat(2001) } },
    { name: 'badStatus', run: ['approval', 'list'], input: { filters: { status: 'done' } } },
    { name: 'unknownField', run: ['approval', 'cancel'], input: { approvalId: '${request.data.approval.id}', force: true } },
    { name: 'missingSubject', run: ['approval', 'request'], input: { subject: 'task:tsk_missing', reason: 'x' } },
    { name: 'missing', run: ['approval', 'get'], input: { approvalId: 'apr_missing' } },
    { name: 'examples', examples: 'approval' },
  ]);
  b = await runExecSteps(d, 'bob', [
    { name: 'get', run: ['approval', 'get'], input: { approvalId: a.request.out.data.approval.id } },
    { name: 'mine', run: ['approval', 'list'], input: { filters: { requesterId: aliceId } } },
    { name: 'cancel', run: ['approval', 'cancel'], input: { approvalId: a.request.out.data.approval.id } },
    { name: 'approve', run: ['approval', 'approve'], input: { approvalId: a.request.out.data.approval.id } },
    { name: 'after', run: ['approval', 'get'], input: { approvalId: a.request.out.data.approval.id } },
  ]);
  // The subject as shown (the bare task id) goes back into request; a Human decides by the id the list showed.
  c = await runExecSteps(d, 'alice', [
    { name: 'task', run: ['task', 'create'], input: { title: 'Rotate keys' } },
    { name: 'bare', run: ['approval', 'request'], input: { subject: '${task.data.task.id}', reason: 'Rotate the staging key' } },
    { name: 'listed', run: ['approval', 'list'], input: { limit: 1, filters: { status: 'pending' } } },
    { name: 'again', run: ['approval', 'request'], input: { subject: '${listed.data.approvals.0.subject}', reason: 'And the prod key' } },
    { name: 'listed2', run: ['approval', 'list'], input: { limit: 1, filters: { status: 'pending' } } },
  ]);
  const owner = await ownerApi(d);
  try {
    await owner.api.approvals.approve({ approvalId: c.listed2.out.data.approvals[0].id, note: 'go' });
  } finally {
    owner.close();
  }
  Object.assign(c, await runExecSteps(d, 'alice', [{ name: 'decided', run: ['approval', 'get'], input: { approvalId: c.listed2.out.data.approvals[0].id } }]));
});
after(() => d.dispose());

test('approval request, get, list, cancel work through agentteam exec; the key replays; cancel is idempotent', () => {
  const r = a.request.out.data.approval;
  assert.deepEqual([a.request.code, r.by], [0, 'alice (agent)']);
  // The compact projection: a compact id and time; status (absent: pending), notify (the subject by default), decidedBy
  // and note omitted until they differ; the requester by name, not id.
  assert.deepEqual(Object.keys(r).sort(), ['by', 'id', 'reason', 'revision', 'subject', 'updatedAt']);
  // A list page: people by display name, each name's kind once in authors.
  assert.deepEqual(a.listAll.out.data.authors, { alice: 'agent' });
  assert.deepEqual(a.listAll.out.data.approvals.map((x: any) => Object.keys(x).sort()), [['by', 'id', 'reason', 'subject'], ['by', 'id', 'reason', 'subject']]);
  assert.ok(a.listAll.out.data.approvals.every((x: any) => x.by === 'alice'));
  assert.match(r.id, /^apr[1-9]\d+$/);
  assert.match(r.updatedAt, /^\d{8}T\d{6}Z$/);
  assert.equal(a.replay.out.data.approval.id, r.id);
  assert.equal(a.keyReuse.out.error.code, 'idempotency_conflict');
  assert.equal(a.get.out.data.approval.id, r.id);
  // Newest first, one per page.
  assert.deepEqual([a.list.out.data.approvals[0].id, a.list2.out.data.approvals[0].id], [a.second.out.data.approval.id, r.id]);
  assert.equal(a.list2.out.data.hasMore, false);
  assert.equal(a.cancel.code, 0, JSON.stringify(a.cancel));
  assert.deepEqual([a.cancel.out.data.approval.id, a.cancel.out.data.approval.status], [a.second.out.data.approval.id, 'cancelled']);
  assert.deepEqual(a.cancelAgain.out.data.approval, a.cancel.out.data.approval);
});

test('an agent approving or rejecting is denied, even its own request; cancelling another member\'s request is denied', () => {
  for (const [s, k] of [[a, 'approve'], [a, 'reject'], [b, 'cancel'], [b, 'approve']] as const) assert.deepEqual([s[k].code, s[k].out.error.code], [4, 'denied'], k);
  assert.deepEqual(b.after.out.data.approval, b.get.out.data.approval, 'denied calls changed nothing');
  assert.equal('status' in b.after.out.data.approval, false, 'still pending');
  // filters.requesterId takes the member id that workspace members and profile get show.
  assert.deepEqual([b.mine.out.data.approvals.length, b.mine.out.data.authors], [2, { alice: 'agent' }]);
  assert.ok(b.mine.out.data.approvals.every((x: any) => x.by === 'alice'));
});

test('the subject is shown as its bare id and taken back in that form; a Human decides by the id the list showed', () => {
  const taskId = c.task.out.data.task.id;
  assert.deepEqual([c.bare.code, c.bare.out.data.approval.subject], [0, taskId], 'tsk_ already says task: no task: prefix');
  assert.equal(c.listed.out.data.approvals[0].subject, taskId);
  assert.deepEqual([c.again.code, c.again.out.data.approval.subject, 'notify' in c.again.out.data.approval], [0, taskId, false], 'same subject, decision to the task');
  assert.equal(c.listed2.out.data.approvals[0].id, c.again.out.data.approval.id);
  const shown = c.decided.out.data.approval;
  assert.deepEqual([shown.status, shown.decidedBy, shown.note, shown.subject], ['approved', 'owner (human)', 'go', taskId]);
});

test('every validation failure is typed', () => {
  for (const k of ['badSubject', 'noReason', 'longNote', 'badStatus', 'unknownField']) {
    assert.equal(a[k].code, 2, k);
    assert.equal(a[k].out.error.code, 'validation_failed', k);
  }
  assert.equal(a.missingSubject.out.error.code, 'not_found');
  assert.equal(a.missing.out.error.code, 'not_found');
});

test("each descriptor's canonical help example runs to a typed answer; help pages are short", () => {
  const ex = a.examples.out;
  assert.deepEqual(Object.keys(ex).sort(), ['approve', 'cancel', 'get', 'list', 'reject', 'request']);
  for (const [k, v] of Object.entries(ex) as [string, any][]) {
    assert.ok(v.code === 0 || ['not_found', 'denied'].includes(v.errorCode), `${k}: ${JSON.stringify(v)}`);
    assert.ok(v.helpChars <= 1000, `${k} help is about 250 tokens at most`);
  }
  assert.equal(ex.list.code, 0);
});
