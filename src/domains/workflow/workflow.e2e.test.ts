// End-to-end: every `workflow` action and operation through the real `agentteam exec` inside daemon-launched runtimes:
// a plan from create to publish, a trigger, a run of two agents' steps to completion, replays, denials, typed failures.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runExecSteps, TestDaemon } from '../../../test/harness.js';

const d = new TestDaemon();
let a: Record<string, any>;
let b: Record<string, any>;
let a2: Record<string, any>;
let aliceId: string;
let bobId: string;

before(async () => {
  await d.start();
  aliceId = (await d.addAgent('alice')).id;
  bobId = (await d.addAgent('bob')).id;
  const steps = [
    { title: 'Draft the notes', instructions: 'docs/release.md', assignee: aliceId },
    { title: 'Ship', assignee: bobId },
  ];
  a = await runExecSteps(d, 'alice', [
    { name: 'task', run: ['task', 'create'], input: { title: 'Release' } },
    { name: 'validate', run: ['workflow', 'plan'], input: { operation: 'validate', steps } },
    { name: 'badAssignee', run: ['workflow', 'plan'], input: { operation: 'validate', steps: [{ title: 'x', assignee: 'mem_nope' }] } },
    { name: 'create', run: ['workflow', 'plan'], input: { operation: 'create', name: 'Release', steps, idempotencyKey: 'wf-e2e-1' } },
    { name: 'replay', run: ['workflow', 'plan'], input: { operation: 'create', name: 'Release', steps, idempotencyKey: 'wf-e2e-1' } },
    { name: 'keyReuse', run: ['workflow', 'plan'], input: { operation: 'create', name: 'Other', steps, idempotencyKey: 'wf-e2e-1' } },
    { name: 'early', run: ['workflow', 'run'], input: { operation: 'start', planId: '${create.data.plan.id}', target: 'task:${task.data.task.id}' } },
    { name: 'publish', run: ['workflow', 'plan'], input: { operation: 'publish', planId: '${create.data.plan.id}' } },
    { name: 'republish', run: ['workflow', 'plan'], input: { operation: 'publish', planId: '${create.data.plan.id}' } },
    { name: 'show', run: ['workflow', 'plan'], input: { operation: 'show', planId: '${create.data.plan.id}' } },
    { name: 'version', run: ['workflow', 'plan'], input: { operation: 'version', planId: '${create.data.plan.id}', version: 1 } },
    { name: 'plans', run: ['workflow', 'plan'], input: { operation: 'list', limit: 1 } },
    { name: 'trigger', run: ['workflow', 'trigger'], input: { operation: 'create', planId: '${create.data.plan.id}', name: 'Train', target: 'task:${task.data.task.id}' } },
    { name: 'tvalidate', run: ['workflow', 'trigger'], input: { operation: 'validate', planId: '${create.data.plan.id}', name: 'Train', target: 'channel:nope' } },
    { name: 'disable', run: ['workflow', 'trigger'], input: { operation: 'disable', triggerId: '${trigger.data.trigger.id}' } },
    { name: 'startOff', run: ['workflow', 'run'], input: { operation: 'start', triggerId: '${trigger.data.trigger.id}' } },
    { name: 'enable', run: ['workflow', 'trigger'], input: { operation: 'enable', triggerId: '${trigger.data.trigger.id}' } },
    { name: 'triggers', run: ['workflow', 'trigger'], input: { operation: 'list', filters: { planId: '${create.data.plan.id}' } } },
    { name: 'start', run: ['workflow', 'run'], input: { operation: 'start', triggerId: '${trigger.data.trigger.id}', idempotencyKey: 'wf-e2e-run' } },
    { name: 'startReplay', run: ['workflow', 'run'], input: { operation: 'start', triggerId: '${trigger.data.trigger.id}', idempotencyKey: 'wf-e2e-run' } },
    // Follow-ups work from what was shown: the run list's id → run show → the step ids it lists; next pages by the shown cursor.
    { name: 'runs0', run: ['workflow', 'run'], input: { operation: 'list', limit: 1 } },
    { name: 'shown', run: ['workflow', 'run'], input: { operation: 'show', runId: '${runs0.data.runs.0.id}' } },
    { name: 'steps', run: ['workflow', 'step'], input: { operation: 'list', runId: '${runs0.data.runs.0.id}', limit: 1 } },
    { name: 'steps2', run: ['workflow', 'step'], input: { operation: 'list', runId: '${runs0.data.runs.0.id}', limit: 1, cursor: '${steps.data.nextCursor}' } },
    { name: 'pause', run: ['workflow', 'step'], input: { operation: 'pause', stepId: '${shown.data.run.steps.0.id}', note: 'waiting' } },
    { name: 'pauseAgain', run: ['workflow', 'step'], input: { operation: 'pause', stepId: '${shown.data.run.steps.0.id}' } },
    { name: 'complete', run: ['workflow', 'step'], input: { operation: 'complete', stepId: '${steps.data.steps.0.id}' } },
    { name: 'notMine', run: ['workflow', 'step'], input: { operation: 'complete', stepId: '${shown.data.run.steps.1.id}' } },
    // A plan with a Human approval step: the approval id run show gives is the one approval get takes (an agent may not decide it).
    { name: 'gate', run: ['workflow', 'plan'], input: { operation: 'create', name: 'Gate', steps: [{ title: 'Sign off', assignee: 'approval' }] } },
    { name: 'gatePub', run: ['workflow', 'plan'], input: { operation: 'publish', planId: '${gate.data.plan.id}' } },
    { name: 'gateRun', run: ['workflow', 'run'], input: { operation: 'start', planId: '${gate.data.plan.id}', target: 'task:${task.data.task.id}' } },
    { name: 'gateShown', run: ['workflow', 'run'], input: { operation: 'show', runId: '${gateRun.data.run.id}' } },
    { name: 'gateApproval', run: ['approval', 'get'], input: { approvalId: '${gateShown.data.run.steps.0.approvalId}' } },
    { name: 'gateApprove', run: ['approval', 'approve'], input: { approvalId: '${gateShown.data.run.steps.0.approvalId}' } },
    { name: 'gateCancel', run: ['workflow', 'run'], input: { operation: 'cancel', runId: '${gateShown.data.run.id}' } },
    { name: 'gateWithdrawn', run: ['approval', 'get'], input: { approvalId: '${gateShown.data.run.steps.0.approvalId}' } },
    { name: 'missingField', run: ['workflow', 'plan'], input: { operation: 'show' } },
    { name: 'foreignField', run: ['workflow', 'run'], input: { operation: 'list', runId: '${start.data.run.id}' } },
    { name: 'readWithKey', run: ['workflow', 'plan'], input: { operation: 'list', idempotencyKey: 'k' } },
    { name: 'badOp', run: ['workflow', 'plan'], input: { operation: 'delete' } },
    { name: 'examples', examples: 'workflow' },
  ]);
  b = await runExecSteps(d, 'bob', [
    { name: 'get', run: ['workflow', 'step'], input: { operation: 'get', stepId: a.steps2.out.data.steps[0].id } },
    { name: 'complete', run: ['workflow', 'step'], input: { operation: 'complete', stepId: '${get.data.step.id}', note: 'shipped' } },
    { name: 'run', run: ['workflow', 'run'], input: { operation: 'show', runId: a.start.out.data.run.id } },
    { name: 'cancelOthers', run: ['workflow', 'run'], input: { operation: 'cancel', runId: a.start.out.data.run.id } },
  ]);
  a2 = await runExecSteps(d, 'alice', [
    { name: 'logs', run: ['workflow', 'run'], input: { operation: 'logs', runId: a.start.out.data.run.id, limit: 4 } },
    { name: 'logs2', run: ['workflow', 'run'], input: { operation: 'logs', runId: a.start.out.data.run.id, limit: 4, cursor: '${logs.data.nextCursor}' } },
    { name: 'runs', run: ['workflow', 'run'], input: { operation: 'list', filters: { status: 'completed' } } },
    { name: 'again', run: ['workflow', 'run'], input: { operation: 'start', planId: a.create.out.data.plan.id, target: `task:${a.task.out.data.task.id}` } },
    { name: 'live', run: ['workflow', 'run'], input: { operation: 'list', filters: { status: 'running' } } },
    { name: 'cancel', run: ['workflow', 'run'], input: { operation: 'cancel', runId: '${live.data.runs.0.id}' } },
    { name: 'cancelAgain', run: ['workflow', 'run'], input: { operation: 'cancel', runId: '${again.data.run.id}' } },
    { name: 'update', run: ['workflow', 'plan'], input: { operation: 'update', planId: a.create.out.data.plan.id, revision: a.publish.out.data.plan.revision, name: 'Release v2', steps: [{ title: 'Ship v2', assignee: bobId }] } },
    { name: 'archive', run: ['workflow', 'plan'], input: { operation: 'archive', planId: a.create.out.data.plan.id } },
    { name: 'archiveTrigger', run: ['workflow', 'trigger'], input: { operation: 'archive', triggerId: a.trigger.out.data.trigger.id } },
  ]);
});
after(() => d.dispose());

const ok = (s: any, k: string) => assert.equal(s[k].code, 0, `${k}: ${JSON.stringify(s[k].out)}`);
const err = (s: any, k: string, code: string, exit = 1) => assert.deepEqual([s[k].code, s[k].out.error?.code], [exit, code], k);

test('a plan goes from create to publish; a trigger starts a run; two agents complete their steps; the run completes', () => {
  for (const k of ['validate', 'create', 'replay', 'publish', 'show', 'version', 'plans', 'trigger', 'tvalidate', 'disable', 'enable', 'triggers', 'start', 'startReplay', 'steps', 'pause', 'complete']) ok(a, k);
  assert.deepEqual(a.validate.out.data, { valid: true });
  assert.equal(a.badAssignee.out.data.valid, false);
  assert.equal(a.replay.out.data.plan.id, a.create.out.data.plan.id);
  assert.deepEqual([a.publish.out.data.plan.publishedVersion, a.show.out.data.version.state, a.version.out.data.version.steps.length], [1, 'published', 2]);
  assert.equal(a.plans.out.data.plans.length, 1);
  assert.equal(a.tvalidate.out.data.valid, false);
  assert.equal(a.startReplay.out.data.run.id, a.start.out.data.run.id);
  assert.deepEqual(a.triggers.out.data.triggers.map((t: any) => t.status), ['enabled']);
  // run show: the plan by name, the starter as name (kind), its steps (agent names; pending has no status), no member ids.
  for (const k of ['runs0', 'shown', 'steps2']) ok(a, k);
  const shown = a.shown.out.data.run;
  assert.equal(a.runs0.out.data.runs[0].id, a.start.out.data.run.id);
  assert.deepEqual(a.runs0.out.data.runs[0], { id: a.start.out.data.run.id, plan: 'Release', progress: '1/2' });
  assert.deepEqual([shown.plan, shown.by, shown.target, 'status' in shown], ['Release', 'alice (agent)', `task:${a.task.out.data.task.id}`, false]);
  assert.deepEqual(shown.steps.map((s: any) => [s.agent, s.status]), [['alice', 'active'], ['bob', undefined]]);
  assert.match(shown.updatedAt, /^\d{8}T\d{6}Z$/);
  assert.ok(!JSON.stringify(shown).includes(aliceId) && !JSON.stringify(shown).includes(bobId), 'no member ids in a run');
  assert.deepEqual([...a.steps.out.data.steps, ...a.steps2.out.data.steps].map((s: any) => s.id), shown.steps.map((s: any) => s.id));
  assert.equal(a.steps2.out.data.hasMore, false);
  // A version's steps keep assignee ids: plan update takes them back.
  assert.deepEqual(a.version.out.data.version.steps.map((s: any) => s.assignee), [aliceId, bobId]);
  assert.equal(a.pause.out.data.step.status, 'paused');
  assert.equal(a.complete.out.data.step.status, 'completed');
  for (const k of ['get', 'complete', 'run']) ok(b, k);
  assert.equal(b.get.out.data.step.status, 'active');
  assert.deepEqual([b.complete.out.data.step.status, b.complete.out.data.step.note], ['completed', 'shipped']);
  assert.deepEqual([b.run.out.data.run.status, 'progress' in b.run.out.data.run], ['completed', false]);
  ok(a2, 'logs');
  ok(a2, 'logs2');
  const logs = [...a2.logs.out.data.logs, ...a2.logs2.out.data.logs];
  assert.deepEqual(logs.map((l: any) => [l.event, l.step, l.by]), [['started', undefined, 'alice'], ['delivered', 1, 'alice'], ['paused', 1, 'alice'], ['completed', 1, 'alice'], ['delivered', 2, 'alice'], ['completed', 2, 'bob'], ['completed', undefined, 'bob']]);
  assert.deepEqual([a2.logs.out.data.authors, a2.logs2.out.data.authors, a2.logs2.out.data.hasMore], [{ alice: 'agent' }, { alice: 'agent', bob: 'agent' }, false]);
  assert.equal(logs[2].note, 'waiting');
  assert.ok(a2.runs.out.data.runs.some((r: any) => r.id === a.start.out.data.run.id));
  for (const k of ['again', 'cancel', 'update', 'archive', 'archiveTrigger']) ok(a2, k);
  assert.deepEqual([a2.cancel.out.data.run.id, a2.cancel.out.data.run.status], [a2.again.out.data.run.id, 'cancelled']);
  assert.deepEqual([a2.update.out.data.plan.latestVersion, a2.archive.out.data.plan.status], [2, 'archived']);
});

test('an approval step shows the approval id that approval get takes; cancelling the run by the shown id withdraws it', () => {
  for (const k of ['gate', 'gatePub', 'gateRun', 'gateShown', 'gateApproval', 'gateCancel', 'gateWithdrawn']) ok(a, k);
  const [step] = a.gateShown.out.data.run.steps;
  assert.deepEqual([step.status, 'agent' in step, step.approvalId], ['active', false, a.gateApproval.out.data.approval.id]);
  assert.equal(a.gateApproval.out.data.approval.subject, step.id, 'an approval shows its subject as the bare step id (the prefix names the kind)');
  err(a, 'gateApprove', 'denied', 4);
  assert.deepEqual([a.gateCancel.out.data.run.status, a.gateCancel.out.data.run.steps[0].status, a.gateWithdrawn.out.data.approval.status], ['cancelled', 'cancelled', 'cancelled']);
});

test('illegal transitions are conflicts, other members are denied, bad input is typed; keys replay once', () => {
  err(a, 'keyReuse', 'idempotency_conflict');
  err(a, 'early', 'conflict');
  err(a, 'republish', 'conflict');
  err(a, 'startOff', 'conflict');
  err(a, 'pauseAgain', 'conflict');
  err(a2, 'cancelAgain', 'conflict');
  err(a, 'notMine', 'denied', 4);
  err(b, 'cancelOthers', 'denied', 4);
  for (const k of ['missingField', 'foreignField', 'readWithKey']) err(a, k, 'validation_failed');
  err(a, 'badOp', 'validation_failed', 2);
});

test("each descriptor's canonical help example runs to a typed answer; help pages are short", () => {
  const ex = a.examples.out;
  assert.deepEqual(Object.keys(ex).sort(), ['plan', 'run', 'step', 'trigger']);
  for (const [k, v] of Object.entries(ex) as [string, any][]) {
    assert.ok(v.code === 0 || v.errorCode === 'not_found', `${k}: ${JSON.stringify(v)}`);
    assert.ok(v.helpChars <= 1000, `${k} help is about 250 tokens at most`);
  }
  for (const k of ['plan', 'trigger', 'run']) assert.equal(ex[k].code, 0, k);
});
