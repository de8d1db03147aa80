// End-to-end: inside a daemon-launched runtime, the real `agentteam exec` binary drives tasks and reviews.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { TestDaemon, cliJson } from './harness.js';

const d = new TestDaemon();
const FIXTURE = join(import.meta.dirname, 'fixtures', 'exec-runtime.mjs');
let report: any;

before(async () => {
  await d.start();
  await d.addAgent('worker');
  const r = await d.run(['runtime', 'start', '--agent', 'worker', '--', process.execPath, FIXTURE], { timeoutMs: 300_000 });
  assert.equal(r.code, 0, r.stderr);
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT'));
  assert.ok(line, r.stdout + r.stderr);
  report = JSON.parse(line.slice(6));
});
after(() => d.dispose());

test('task lifecycle through agentteam exec with validated transitions', () => {
  assert.equal(report.create.code, 0);
  const task = report.create.out.data.task;
  assert.equal(task.status, 'open');
  assert.equal(task.title, 'write the docs');
  assert.equal(report.start.out.data.task.status, 'in_progress');
  assert.equal(report.block.out.data.task.status, 'blocked');
  assert.equal(report.block.out.data.task.blockedReason, 'waiting on review');
  assert.equal(report.badComplete.code, 1);
  assert.equal(report.badComplete.out.ok, false);
  assert.equal(report.badComplete.out.error.code, 'conflict');
  assert.equal(report.restart.out.data.task.status, 'in_progress', 'payload read from stdin with -');
  assert.equal(report.complete.out.data.task.status, 'done');
  assert.equal(report.staleUpdate.code, 1);
  assert.equal(report.staleUpdate.out.error.code, 'conflict');
  assert.equal(report.get.out.data.task.status, 'done');
  assert.ok(report.get.out.data.task.revision > task.revision);
});

test('reviews are added and listed on the task', () => {
  assert.equal(report.review.code, 0, JSON.stringify(report.review));
  assert.equal(report.review.out.data.review.verdict, 'approve');
  assert.deepEqual(report.reviewList.out.data.reviews.map((r: any) => r.id), [report.review.out.data.review.id]);
  // The author by display name, its kind once per page; an open review carries no status (absent: open).
  assert.deepEqual(report.reviewList.out.data.reviews[0], { id: report.review.out.data.review.id, by: 'worker', verdict: 'approve', body: 'looks good' });
  assert.deepEqual(report.reviewList.out.data.authors, { worker: 'agent' });
  assert.equal(report.review.out.data.review.by, 'worker (agent)');
  assert.equal(report.reviewList.out.data.hasMore, false);
  assert.equal(report.reviewList.out.data.nextCursor, undefined);
});

test('task list pages walk every task exactly once, newest first; idempotent replay returns the same task', async () => {
  assert.equal(report.firstPageSize, 20, 'default page size');
  assert.equal(report.walk.length, 45);
  assert.equal(new Set(report.walk).size, 45);
  assert.ok(report.replayId, 'replay answered');
  assert.ok(report.walk.includes(report.replayId));
  assert.equal(report.idemConflict.code, 1);
  assert.equal(report.idemConflict.out.error.code, 'idempotency_conflict');
  assert.equal(report.tampered.out.error.code, 'validation_failed');
  // the owner's view agrees: newest first means the last bulk task leads
  assert.equal(report.walk.at(-1), report.create.out.data.task.id);
});

test('assign, comment, cancel, reopen and review get/resolve/reopen work through the binary', () => {
  assert.equal(report.assign.code, 0, JSON.stringify(report.assign));
  // People by name (kind); the id assign took came from workspace members, and filters.assigneeId takes it too.
  assert.equal(report.createdBy, 'worker (agent)');
  assert.equal(report.assign.out.data.task.assignee, 'worker (agent)');
  assert.equal(report.assignedGet.out.data.task.assignee, 'worker (agent)');
  assert.deepEqual(report.assignedList.out.data.tasks.map((t: { id: string; assignee: string }) => [t.id, t.assignee]), [[report.assign.out.data.task.id, 'worker (agent)']]);
  assert.equal('assignee' in report.unassign.out.data.task, false, 'unassigned: omitted, not null');
  // Follow-ups built only from what the model was shown: update with the listed revision, review get by the listed id.
  assert.equal(report.listedUpdate.code, 0, JSON.stringify(report.listedUpdate));
  assert.equal(report.listedUpdate.out.data.task.title, 'second, renamed');
  assert.match(report.comment.out.data.comment.id, /^msg[1-9]\d+$/);
  assert.equal(report.listedReviewGet.out.data.review.id, report.review.out.data.review.id);
  assert.equal(report.comment.code, 0, JSON.stringify(report.comment));
  assert.equal(report.cancel.out.data.task.status, 'canceled');
  assert.equal(report.reopen.out.data.task.status, 'open');
  assert.equal(report.reviewGet.out.data.review.verdict, 'approve');
  assert.equal(report.reviewResolve.code, 0, JSON.stringify(report.reviewResolve));
  assert.equal(report.reviewResolve.out.data.review.status, 'resolved');
  assert.deepEqual(report.resolvedList.out.data.reviews.map((r: any) => [r.id, r.status]), [[report.review.out.data.review.id, 'resolved']]);
  assert.equal('status' in report.reviewReopen.out.data.review, false, 'reopened: open again, so no status');
  assert.equal(report.reviewReopen.out.data.review.revision, 3);
});

test('every action has a canonical help example that runs: valid input, a typed answer', () => {
  const entries = Object.entries(report.examples) as Array<[string, { example: string | null; code: number; errorCode: string | null }]>;
  assert.equal(entries.length, 16, Object.keys(report.examples).join(', '));
  for (const [name, r] of entries) {
    assert.ok(r.example, `${name} has an example`);
    // Examples name placeholder ids, so the server may answer not_found; they must never be rejected as input.
    assert.ok(r.code === 0 || (r.code === 1 && ['not_found', 'conflict'].includes(r.errorCode!)), `${name}: ${JSON.stringify(r)}`);
  }
});

test('every failure the agent can provoke is a typed envelope with the right exit code', () => {
  assert.equal(report.unknownField.code, 2);
  assert.equal(report.unknownField.out.ok, false);
  assert.equal(report.malformed.code, 2);
  assert.equal(report.malformed.out.error.code, 'invalid_input');
  assert.equal(report.notFound.code, 1);
  assert.equal(report.notFound.out.error.code, 'not_found');
  assert.equal(report.unknownAction.code, 2);
  // Before the id grammar was enforced at the daemon, `task get {"taskId":"."}` reached GET /v1/tasks and answered internal.
  assert.deepEqual(report.dotIds, ['validation_failed', 'validation_failed', 'validation_failed', 'validation_failed', 'validation_failed']);
  assert.equal(report.noTokenFile.code, 3, 'a missing token file fails closed, never using AGENTTEAM_EXEC_TOKEN');
  assert.ok(!report.noTokenFile.out.includes('/nonexistent'), 'the token file path is not echoed');
});

test('the issue example through the binary: a 20,000-control-character description is refused naming its limit; tasks at the bound leave every list page and get readable', () => {
  // Fails before the byte bounds: the oversized task was accepted, and every later `task list` answered result_budget_exceeded.
  assert.equal(report.oversized.out.error.code, 'validation_failed', JSON.stringify(report.oversized.out));
  assert.match(report.oversized.out.error.message, /description/);
  // Within the character limit but over the byte limit: the daemon checks the contract's bytes before sending.
  assert.equal(report.overBytes.out.error.code, 'validation_failed', JSON.stringify(report.overBytes.out));
  assert.match(report.overBytes.out.error.message, /^description is 12006 bytes as JSON; the limit is 12000 bytes/);
  assert.equal(report.boundIds.filter(Boolean).length, 5);
  assert.deepEqual(report.boundGets, [0, 0, 0, 0, 0]);
  assert.ok(report.boundPages.every((p: any) => p.code === 0 && p.n > 0), JSON.stringify(report.boundPages));
  assert.ok(report.boundPages[0].n < 5, `the first page shrank to fit 64 KiB (${report.boundPages[0].n} tasks)`);
  assert.deepEqual(report.boundWalk.slice(0, 5), [...report.boundIds].reverse(), 'newest first');
  assert.ok(report.boundWalk.includes(report.beforeBounds), 'older tasks stay reachable');
  assert.equal(new Set(report.boundWalk).size, report.boundWalk.length);
});

test('the runtime found help on its PATH, then exited and was revoked', async () => {
  assert.equal(typeof JSON.parse(report.helpExample).title, 'string');
  const status = cliJson(await d.run(['daemon', 'status']));
  assert.equal(status.counts.runtimes, 0, 'the runtime exited and was revoked');
  assert.equal(status.counts.authorizations, 0);
});
