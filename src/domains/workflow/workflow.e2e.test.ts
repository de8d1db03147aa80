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
    { name: 'steps', run: ['workflow', 'step'], input: { operation: 'list', runId: '${start.data.run.id}' } },
    { name: 'pause', run: ['workflow', 'step'], input: { operation: 'pause', stepId: '${steps.data.steps.0.id}', note: 'waiting' } },
    { name: 'pauseAgain', run: ['workflow', 'step'], input: { operation: 'pause', stepId: '${steps.data.steps.0.id}' } },
    { name: 'complete', run: ['workflow', 'step'], input: { operation: 'complete', stepId: '${steps.data.steps.0.id}' } },
    { name: 'notMine', run: ['workflow', 'step'], input: { operation: 'complete', stepId: '${steps.data.steps.1.id}' } },
    { name: 'missingField', run: ['workflow', 'plan'], input: { operation: 'show' } },
    { name: 'foreignField', run: ['workflow', 'run'], input: { operation: 'list', runId: '${start.data.run.id}' } },
    { name: 'readWithKey', run: ['workflow', 'plan'], input: { operation: 'list', idempotencyKey: 'k' } },
    { name: 'badOp', run: ['workflow', 'plan'], input: { operation: 'delete' } },
    { name: 'examples', examples: 'workflow' },
  ]);
  b = await runExecSteps(d, 'bob', [
    { name: 'get', run: ['workflow', 'step'], input: { operation: 'get', stepId: a.steps.out.data.steps[1].id } },
    { name: 'complete', run: ['workflow', 'step'], input: { operation: 'complete', stepId: a.steps.out.data.steps[1].id, note: 'shipped' } },
    { name: 'run', run: ['workflow', 'run'], input: { operation: 'show', runId: a.start.out.data.run.id } },
    { name: 'cancelOthers', run: ['workflow', 'run'], input: { operation: 'cancel', runId: a.start.out.data.run.id } },
  ]);
  a2 = await runExecSteps(d, 'alice', [
    { name: 'logs', run: ['workflow', 'run'], input: { operation: 'logs', runId: a.start.out.data.run.id } },
    { name: 'runs', run: ['workflow', 'run'], input: { operation: 'list', filters: { status: 'completed' } } },
    { name: 'again', run: ['workflow', 'run'], input: { operation: 'start', planId: a.create.out.data.plan.id, target: `task:${a.task.out.data.task.id}` } },
    { name: 'cancel', run: ['workflow', 'run'], input: { operation: 'cancel', runId: '${again.data.run.id}' } },
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
  assert.deepEqual(a.steps.out.data.steps.map((s: any) => [s.assignee, s.status]), [[aliceId, 'active'], [bobId, 'pending']]);
  assert.equal(a.pause.out.data.step.status, 'paused');
  assert.equal(a.complete.out.data.step.status, 'completed');
  for (const k of ['get', 'complete', 'run']) ok(b, k);
  assert.equal(b.get.out.data.step.status, 'active');
  assert.deepEqual([b.complete.out.data.step.status, b.complete.out.data.step.note], ['completed', 'shipped']);
  assert.deepEqual([b.run.out.data.run.status, b.run.out.data.run.currentStep], ['completed', null]);
  ok(a2, 'logs');
  assert.deepEqual(a2.logs.out.data.logs.map((l: any) => l.event), ['started', 'delivered', 'paused', 'completed', 'delivered', 'completed', 'completed']);
  assert.ok(a2.runs.out.data.runs.some((r: any) => r.id === a.start.out.data.run.id));
  for (const k of ['again', 'cancel', 'update', 'archive', 'archiveTrigger']) ok(a2, k);
  assert.equal(a2.cancel.out.data.run.status, 'cancelled');
  assert.deepEqual([a2.update.out.data.plan.latestVersion, a2.archive.out.data.plan.status], [2, 'archived']);
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
