// Tests the workflow domain on the real server (SQLite, or PostgreSQL via the suites runner), on a fake clock: a plan
// from create through publish, trigger and run start, every step outcome (an agent's and a Human approval's) to run
// completion; every illegal transition and denial rejected without change; frozen published versions; bounds; keyset
// walks equal to full scans with ties on createdAt; filter-bound cursors; idempotent replays.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerApi } from '../../server-client/api.js';
import { FakeClock } from '../../shared/clock.js';
import { ITEM_BYTES_MAX, jsonBytes } from '../../shared/bounds.js';
import { startTestServer, type TestServer } from '../test-server.js';
import { BOUNDS, LIVE_PLANS_PER_MEMBER_MAX, LIVE_RUNS_PER_MEMBER_MAX, LIVE_TRIGGERS_PER_MEMBER_MAX, STEPS_BYTES_MAX, STEPS_MAX, type PlanVersionDto, type StepDefDto, type StepDto } from './contract.js';
import { SYNC_TICK_MS } from './sync.js';

// Time stands still unless a test moves it: every row shares createdAt, so each walk exercises the id tie-breaker.
const clock = new FakeClock(Date.UTC(2026, 0, 1));
let t: TestServer;
let alice: ServerApi;
let bob: ServerApi;
let carol: ServerApi;
let aliceId: string;
let bobId: string;
let carolId: string;
const target = 'channel:ops';

before(async () => {
  t = await startTestServer({ clock });
  const a = await t.owner.members.createAgent({ name: 'alice' });
  const b = await t.owner.members.createAgent({ name: 'bob' });
  const c = await t.owner.members.createAgent({ name: 'carol' });
  alice = t.client.as(a.credential);
  bob = t.client.as(b.credential);
  carol = t.client.as(c.credential);
  aliceId = a.agent.id;
  bobId = b.agent.id;
  carolId = c.agent.id;
  await t.owner.channels.create({ id: 'ops' });
  await t.owner.channels.addMember({ channelId: 'ops', memberId: aliceId });
  await t.owner.channels.addMember({ channelId: 'ops', memberId: bobId });
});
after(async () => t.stop());

const code = (c: string) => (e: unknown) => (e as { code?: string }).code === c;
const steps = (): StepDefDto[] => [
  { title: 'Draft the release notes', instructions: 'Put them in docs/release.md', assignee: aliceId },
  { title: 'Approve the release', assignee: 'approval' },
  { title: 'Ship it', assignee: bobId },
];
/** Lets the approval loop run one pass. */
async function tick(): Promise<void> {
  await t.server.idle!();
  clock.advance(SYNC_TICK_MS);
  await t.server.idle!();
}
const stepsOf = async (runId: string): Promise<StepDto[]> => (await alice.workflows.listSteps({ runId: runId, limit: 100 })).steps;
async function publishedPlan(name: string, s: StepDefDto[] = steps()) {
  const p = await alice.workflows.createPlan({ name, steps: s });
  return alice.workflows.publishPlan({ planId: p.id, revision: p.revision });
}

test('plan create → publish → trigger → run start → every step outcome → run completion; each step reaches its assignee', async () => {
  const p = await alice.workflows.createPlan({ name: 'Release', steps: steps() });
  assert.deepEqual([p.status, p.latestVersion, p.publishedVersion, p.revision, p.createdBy], ['active', 1, null, 1, aliceId]);
  await assert.rejects(alice.workflows.startRun({ planId: p.id, target }), code('conflict'), 'a draft-only plan does not run');
  const pub = await alice.workflows.publishPlan({ planId: p.id, revision: p.revision });
  assert.deepEqual([pub.publishedVersion, pub.revision], [1, 2]);
  await assert.rejects(alice.workflows.publishPlan({ planId: p.id, }), code('conflict'), 'version 1 is already published');

  const tr = await alice.workflows.createTrigger({ planId: p.id, name: 'Release train', target });
  assert.deepEqual([tr.status, tr.kind, tr.target], ['enabled', 'manual', target]);
  // The owner starts it: step turns and the approval act as the starter (an agent's own messages are never its turns).
  const run = await t.owner.workflows.startRun({ triggerId: tr.id });
  assert.deepEqual([run.status, run.currentStep, run.stepCount, run.version, run.triggerId, run.startedBy], ['running', 0, 3, 1, tr.id, t.ownerId]);

  let [s0, s1, s2] = await stepsOf(run.id);
  assert.deepEqual([s0!.status, s1!.status, s2!.status], ['active', 'pending', 'pending']);
  // The step is a turn for alice: a message in the run's target that mentions her and names the step.
  const turns = (await alice.turns.read({ after: 0, waitMs: 0 })).turns.filter((x) => x.messageId === s0!.messageId);
  assert.equal(turns.length, 1);
  assert.equal(turns[0]!.target, target);
  assert.match(turns[0]!.content, new RegExp(`@alice .*${run.id}.*Draft the release notes[\\s\\S]*${s0!.id}`));

  await assert.rejects(bob.workflows.completeStep({ stepId: s0!.id }), code('denied'), 'only the assignee');
  await assert.rejects(t.owner.workflows.completeStep({ stepId: s0!.id }), code('denied'), 'not even the owner');
  const paused = await alice.workflows.pauseStep({ stepId: s0!.id, note: 'waiting for numbers' });
  assert.deepEqual([paused.status, paused.note], ['paused', 'waiting for numbers']);
  assert.equal((await alice.workflows.showRun({ runId: run.id })).status, 'paused');
  await assert.rejects(alice.workflows.pauseStep({ stepId: s0!.id }), code('conflict'), 'paused again');
  assert.equal((await alice.workflows.parkStep({ stepId: s0!.id })).status, 'parked');
  assert.equal((await alice.workflows.showRun({ runId: run.id })).status, 'parked');
  await assert.rejects(alice.workflows.completeStep({ stepId: s1!.id }), code('denied'), 'an approval step is not completed by an agent');
  await assert.rejects(bob.workflows.completeStep({ stepId: s2!.id }), code('conflict'), 'a pending step cannot move');
  assert.equal((await alice.workflows.completeStep({ stepId: s0!.id, note: 'done' })).status, 'completed');
  await assert.rejects(alice.workflows.failStep({ stepId: s0!.id }), code('conflict'), 'a completed step is final');

  [s0, s1, s2] = await stepsOf(run.id);
  assert.equal(s1!.status, 'active');
  const approval = await alice.approvals.get({ approvalId: s1!.approvalId! });
  assert.deepEqual([approval.subject, approval.status, approval.notify, approval.requestedBy], [`step:${s1!.id}`, 'pending', target, t.ownerId]);
  await tick();
  assert.equal((await alice.workflows.getStep({ stepId: s1!.id })).status, 'active', 'nothing moves before the decision');
  await t.owner.approvals.approve({ approvalId: approval.id, note: 'go' });
  await tick();
  [s0, s1, s2] = await stepsOf(run.id);
  assert.deepEqual([s1!.status, s1!.note, s2!.status], ['completed', 'go', 'active']);
  assert.ok((await bob.turns.read({ after: 0, waitMs: 0 })).turns.some((x) => x.messageId === s2!.messageId && /@bob /.test(x.content)));
  assert.equal((await bob.workflows.completeStep({ stepId: s2!.id })).status, 'completed');
  const done = await alice.workflows.showRun({ runId: run.id });
  assert.deepEqual([done.status, done.currentStep], ['completed', null]);
  await assert.rejects(t.owner.workflows.cancelRun({ runId: run.id }), code('conflict'), 'a completed run cannot be cancelled');

  const logs = (await alice.workflows.runLogs({ runId: run.id, limit: 100 })).logs;
  assert.deepEqual(logs.map((l) => l.event), ['started', 'delivered', 'paused', 'parked', 'completed', 'approval_requested', 'completed', 'delivered', 'completed', 'completed']);
  assert.deepEqual(logs.map((l) => l.seq), logs.map((_, i) => i + 1));
});

test("DTOs name what a reader needs: creators, a run's plan (its current name) and starter, its steps with their agents, log actors and step positions", async () => {
  const alicePerson = { name: 'alice', kind: 'agent' };
  const p = await publishedPlan('Named');
  assert.deepEqual(p.creator, alicePerson);
  assert.deepEqual((await alice.workflows.createTrigger({ planId: p.id, name: 'Named train', target })).creator, alicePerson);
  const run = await alice.workflows.startRun({ planId: p.id, target });
  assert.deepEqual([run.planName, run.starter], ['Named', alicePerson]);
  // start, show and cancel carry the run's steps in plan order, each with its agent's name (null: an approval step).
  assert.deepEqual(run.steps.map((s) => [s.index, s.status, s.agent]), [[0, 'active', alicePerson], [1, 'pending', null], [2, 'pending', { name: 'bob', kind: 'agent' }]]);
  assert.deepEqual(run.steps, await stepsOf(run.id));
  assert.deepEqual((await bob.workflows.getStep({ stepId: run.steps[2]!.id })).agent, { name: 'bob', kind: 'agent' });
  await alice.workflows.updatePlan({ planId: p.id, revision: p.revision, name: 'Named v2' });
  const [listed] = (await alice.workflows.listRuns({ planId: p.id, limit: 1 })).runs;
  assert.deepEqual([listed!.id, listed!.planName, listed!.starter], [run.id, 'Named v2', alicePerson]);
  const cancelled = await t.owner.workflows.cancelRun({ runId: run.id });
  assert.deepEqual([cancelled.status, cancelled.steps.map((s) => s.status)], ['cancelled', ['cancelled', 'pending', 'pending']]);
  assert.deepEqual((await alice.workflows.showRun({ runId: run.id })).steps, cancelled.steps);
  const logs = (await alice.workflows.runLogs({ runId: run.id, limit: 100 })).logs;
  assert.deepEqual(logs.map((l) => [l.event, l.stepIndex, l.actor.name]), [['started', null, 'alice'], ['delivered', 0, 'alice'], ['cancelled', null, 'Owner']]);
  assert.equal(logs[2]!.actor.kind, 'human');
});

test('fail ends the run; a rejected approval fails its step; cancel withdraws the pending approval; only the starter or an admin cancels', async () => {
  const p = await publishedPlan('Outcomes');
  const r1 = await alice.workflows.startRun({ planId: p.id, target });
  const [a1] = await stepsOf(r1.id);
  assert.equal((await alice.workflows.failStep({ stepId: a1!.id, note: 'broken build' })).status, 'failed');
  assert.deepEqual([(await alice.workflows.showRun({ runId: r1.id })).status, (await stepsOf(r1.id))[1]!.status], ['failed', 'pending']);

  const r2 = await alice.workflows.startRun({ planId: p.id, target });
  await alice.workflows.completeStep({ stepId: (await stepsOf(r2.id))[0]!.id });
  const appr = (await stepsOf(r2.id))[1]!;
  await t.owner.approvals.reject({ approvalId: appr.approvalId!, note: 'not today' });
  await tick();
  assert.deepEqual([(await alice.workflows.getStep({ stepId: appr.id })).status, (await alice.workflows.showRun({ runId: r2.id })).status], ['failed', 'failed']);

  const r3 = await alice.workflows.startRun({ planId: p.id, target });
  await alice.workflows.completeStep({ stepId: (await stepsOf(r3.id))[0]!.id });
  const waiting = (await stepsOf(r3.id))[1]!;
  await assert.rejects(bob.workflows.cancelRun({ runId: r3.id }), code('denied'));
  assert.equal((await alice.workflows.showRun({ runId: r3.id })).status, 'running', 'the denied cancel changed nothing');
  const c = await alice.workflows.cancelRun({ runId: r3.id });
  assert.deepEqual([c.status, c.currentStep], ['cancelled', null]);
  assert.equal((await alice.workflows.getStep({ stepId: waiting.id })).status, 'cancelled');
  assert.equal((await alice.approvals.get({ approvalId: waiting.approvalId! })).status, 'cancelled');
  await assert.rejects(alice.workflows.cancelRun({ runId: r3.id }), code('conflict'));
  const r4 = await alice.workflows.startRun({ planId: p.id, target });
  assert.equal((await t.owner.workflows.cancelRun({ runId: r4.id })).status, 'cancelled', 'the owner may cancel any run');
});

test('a published version never changes: update opens a new draft; revisions guard concurrent edits; archive is final', async () => {
  const p = await publishedPlan('Versions');
  const v1 = await alice.workflows.planVersion({ planId: p.id, version: '1' });
  const u = await alice.workflows.updatePlan({ planId: p.id, revision: p.revision, steps: [{ title: 'Only step', assignee: bobId }] });
  assert.deepEqual([u.latestVersion, u.publishedVersion], [2, 1]);
  assert.deepEqual(await alice.workflows.planVersion({ planId: p.id, version: '1' }), v1, 'version 1 is frozen');
  const u2 = await alice.workflows.updatePlan({ planId: p.id, revision: u.revision, name: 'Versions 2', steps: [{ title: 'Edited draft', assignee: bobId }] });
  assert.equal(u2.latestVersion, 2, 'a draft is edited in place');
  const shown = await alice.workflows.showPlan({ planId: p.id });
  assert.deepEqual([shown.version.state, shown.version.steps[0]!.title, shown.plan.name], ['draft', 'Edited draft', 'Versions 2']);
  await assert.rejects(alice.workflows.updatePlan({ planId: p.id, revision: u.revision, name: 'stale' }), code('conflict'), 'stale revision');
  assert.equal((await alice.workflows.showPlan({ planId: p.id })).plan.name, 'Versions 2');
  const run = await alice.workflows.startRun({ planId: p.id, target });
  assert.deepEqual([run.version, run.stepCount], [1, 3], 'runs use the published version, not the draft');
  await assert.rejects(bob.workflows.updatePlan({ planId: p.id, revision: u2.revision, name: 'mine' }), code('denied'));
  await assert.rejects(bob.workflows.archivePlan({ planId: p.id, }), code('denied'));
  const arch = await alice.workflows.archivePlan({ planId: p.id, revision: u2.revision });
  assert.equal(arch.status, 'archived');
  for (const call of [() => alice.workflows.archivePlan({ planId: p.id, }), () => alice.workflows.publishPlan({ planId: p.id, }), () => alice.workflows.updatePlan({ planId: p.id, revision: arch.revision, name: 'x' }), () => alice.workflows.startRun({ planId: p.id, target })]) {
    await assert.rejects(call(), code('conflict'));
  }
  await assert.rejects(alice.workflows.planVersion({ planId: p.id, version: '9' }), code('not_found'));
});

test('triggers: disable stops runs, enable resumes, repeats and archived triggers conflict; only the creator edits', async () => {
  const p = await publishedPlan('Triggered');
  const tr = await alice.workflows.createTrigger({ planId: p.id, name: 'Nightly', target });
  assert.deepEqual(await alice.workflows.validateTrigger({ planId: p.id, name: 'x', target: 'channel:nope' }), { valid: false, problem: 'target channel:nope not found' });
  assert.deepEqual(await alice.workflows.validateTrigger({ planId: p.id, name: 'x', target }), { valid: true });
  await assert.rejects(carol.workflows.createTrigger({ planId: p.id, name: 'x', target }), code('not_found'), 'a channel carol is not in');
  const off = await alice.workflows.disableTrigger({ triggerId: tr.id, revision: tr.revision });
  assert.equal(off.status, 'disabled');
  await assert.rejects(alice.workflows.startRun({ triggerId: tr.id }), code('conflict'));
  await assert.rejects(alice.workflows.disableTrigger({ triggerId: tr.id, }), code('conflict'));
  await assert.rejects(bob.workflows.enableTrigger({ triggerId: tr.id, }), code('denied'));
  await assert.rejects(alice.workflows.enableTrigger({ triggerId: tr.id, revision: tr.revision }), code('conflict'), 'stale revision');
  assert.equal((await alice.workflows.enableTrigger({ triggerId: tr.id, revision: off.revision })).status, 'enabled');
  const up = await alice.workflows.updateTrigger({ triggerId: tr.id, revision: off.revision + 1, name: 'Nightly 2' });
  assert.equal(up.name, 'Nightly 2');
  await assert.rejects(alice.workflows.startRun({ triggerId: tr.id, target }), code('validation_failed'), 'a trigger brings its own target');
  assert.equal((await alice.workflows.startRun({ triggerId: tr.id })).triggerId, tr.id);
  await alice.workflows.archiveTrigger({ triggerId: tr.id, });
  for (const op of ['enable', 'disable', 'archive'] as const) await assert.rejects(alice.workflows[`${op}Trigger` as const]({ triggerId: tr.id }), code('conflict'));
  await assert.rejects(alice.workflows.updateTrigger({ triggerId: tr.id, revision: 99, name: 'x' }), code('conflict'));
});

test('bad input is a typed failure and stores nothing; validate reports without storing', async () => {
  const before = await t.querySql<{ n: number }>('SELECT COUNT(*) AS n FROM workflow_plans');
  const bad: unknown[] = [
    [],
    Array.from({ length: STEPS_MAX + 1 }, () => ({ title: 'x', assignee: aliceId })),
    [{ title: '', assignee: aliceId }],
    [{ title: 't'.repeat(BOUNDS.title.chars + 1), assignee: aliceId }],
    [{ title: '\u0001'.repeat(BOUNDS.title.chars), assignee: aliceId }],
    [{ title: 'x', assignee: t.ownerId }],
    [{ title: 'x', assignee: 'mem_missing' }],
    [{ title: 'x', instructions: 'i'.repeat(BOUNDS.instructions.chars + 1), assignee: aliceId }],
  ];
  for (const s of bad) {
    await assert.rejects(alice.workflows.createPlan({ name: 'Bad', steps: s as StepDefDto[] }), code('validation_failed'), JSON.stringify(s).slice(0, 80));
    // validate reports a rule it breaks; a shape the schema refuses is the same validation_failed as create.
    const v = await alice.workflows.validatePlan({ steps: s as StepDefDto[] }).catch((e: { code?: string }) => ({ valid: e.code !== 'validation_failed' }));
    assert.equal(v.valid, false);
  }
  await assert.rejects(alice.workflows.createPlan({ name: ' ', steps: steps() }), code('validation_failed'));
  const gone = await t.owner.members.createAgent({ name: 'gone' });
  await t.owner.members.remove({ memberId: gone.agent.id });
  await assert.rejects(alice.workflows.createPlan({ name: 'Gone', steps: [{ title: 'x', assignee: gone.agent.id }] }), code('validation_failed'), 'a removed agent is no assignee');
  assert.deepEqual(await alice.workflows.validatePlan({ name: 'Good', steps: steps() }), { valid: true });
  assert.deepEqual(await t.querySql('SELECT COUNT(*) AS n FROM workflow_plans'), before, 'nothing stored');
  const p = await publishedPlan('Inputs');
  await assert.rejects(alice.workflows.startRun({ planId: p.id }), code('validation_failed'), 'a plan run needs a target');
  await assert.rejects(alice.workflows.startRun({ target }), code('validation_failed'));
  await assert.rejects(alice.workflows.startRun({ planId: p.id, target: 'general' }), code('validation_failed'));
  await assert.rejects(carol.workflows.startRun({ planId: p.id, target }), code('not_found'), 'carol may not post in ops');
  await assert.rejects(alice.workflows.startRun({ planId: 'wfp_missing', target }), code('not_found'));
  await assert.rejects(alice.workflows.updatePlan({ planId: p.id, revision: p.revision }), code('validation_failed'), 'nothing to change');
  const r = await alice.workflows.startRun({ planId: p.id, target });
  const s0 = (await stepsOf(r.id))[0]!;
  await assert.rejects(alice.workflows.completeStep({ stepId: s0.id, note: 'n'.repeat(BOUNDS.note.chars + 1) }), code('validation_failed'));
  assert.equal((await alice.workflows.getStep({ stepId: s0.id })).status, 'active');
  await assert.rejects(alice.workflows.getStep({ stepId: 'wfs_missing' }), code('not_found'));
  await assert.rejects(alice.workflows.runLogs({ runId: 'wfr_missing' }), code('not_found'));
});

test('every stored item at its bounds stays under ITEM_BYTES_MAX; the steps aggregate is bounded in bytes', () => {
  const worst = (chars: number) => '\u0001'.repeat(chars);
  const id = 'i'.repeat(100);
  const s: StepDefDto = { title: worst(40), instructions: worst(80), assignee: id };
  assert.ok(jsonBytes(s) > 0);
  const version: PlanVersionDto = { planId: id, version: 2 ** 31, state: 'published', steps: Array.from({ length: STEPS_MAX }, () => ({ title: 't'.repeat(BOUNDS.title.bytes), instructions: 'i'.repeat(BOUNDS.instructions.bytes), assignee: id })), createdAt: new Date(8.64e15).toISOString(), publishedAt: new Date(8.64e15).toISOString() };
  assert.ok(jsonBytes(version.steps) <= STEPS_BYTES_MAX, `${jsonBytes(version.steps)} bytes of steps at every bound`);
  assert.ok(jsonBytes(version) <= ITEM_BYTES_MAX);
  const step: StepDto = { id, runId: id, index: 15, title: 't'.repeat(BOUNDS.title.bytes), instructions: 'i'.repeat(BOUNDS.instructions.bytes), assignee: id, agent: { name: 'n'.repeat(240), kind: 'agent' }, status: 'completed', approvalId: id, messageId: id, note: 'n'.repeat(BOUNDS.note.bytes), revision: 2 ** 40, createdAt: version.createdAt, updatedAt: version.createdAt };
  assert.ok(jsonBytes(step) <= ITEM_BYTES_MAX);
});

test('pagination walks equal full scans (createdAt DESC, id DESC with ties; steps and logs in order); cursors are bound to their filter', async () => {
  const p = await publishedPlan('Paging');
  for (let i = 0; i < 7; i++) await alice.workflows.startRun({ planId: p.id, target });
  const walk = async <T>(page: (cursor?: string) => Promise<{ items: T[]; hasMore: boolean; nextCursor?: string }>) => {
    const out: T[] = [];
    let cursor: string | undefined;
    for (;;) {
      const r = await page(cursor);
      out.push(...r.items);
      if (!r.hasMore) return (assert.equal(r.nextCursor, undefined), out);
      cursor = r.nextCursor;
    }
  };
  const runs = await walk((cursor) => alice.workflows.listRuns({ planId: p.id, limit: 3, ...(cursor ? { cursor } : {}) }).then((r) => ({ items: r.runs.map((x) => x.id), hasMore: r.hasMore, ...(r.nextCursor ? { nextCursor: r.nextCursor } : {}) })));
  const full = (await t.querySql<{ id: string }>('SELECT id FROM workflow_runs WHERE plan_id = ? ORDER BY created_at DESC, id DESC', [p.id])).map((r) => r.id);
  assert.deepEqual(runs, full);
  assert.equal(full.length, 7);
  const allRuns = await walk((cursor) => alice.workflows.listRuns({ limit: 4, ...(cursor ? { cursor } : {}) }).then((r) => ({ items: r.runs.map((x) => x.id), hasMore: r.hasMore, ...(r.nextCursor ? { nextCursor: r.nextCursor } : {}) })));
  assert.deepEqual(allRuns, (await t.querySql<{ id: string }>('SELECT id FROM workflow_runs ORDER BY created_at DESC, id DESC')).map((r) => r.id));
  const plans = await walk((cursor) => alice.workflows.listPlans({ limit: 2, ...(cursor ? { cursor } : {}) }).then((r) => ({ items: r.plans.map((x) => x.id), hasMore: r.hasMore, ...(r.nextCursor ? { nextCursor: r.nextCursor } : {}) })));
  assert.deepEqual(plans, (await t.querySql<{ id: string }>('SELECT id FROM workflow_plans ORDER BY created_at DESC, id DESC')).map((r) => r.id));
  const steps1 = await walk((cursor) => alice.workflows.listSteps({ runId: full[0]!, limit: 1, ...(cursor ? { cursor } : {}) }).then((r) => ({ items: r.steps.map((x) => x.index), hasMore: r.hasMore, ...(r.nextCursor ? { nextCursor: r.nextCursor } : {}) })));
  assert.deepEqual(steps1, [0, 1, 2]);
  const logs = await walk((cursor) => alice.workflows.runLogs({ runId: full[0]!, limit: 1, ...(cursor ? { cursor } : {}) }).then((r) => ({ items: r.logs.map((x) => x.seq), hasMore: r.hasMore, ...(r.nextCursor ? { nextCursor: r.nextCursor } : {}) })));
  assert.deepEqual(logs, [1, 2]);

  const first = await alice.workflows.listRuns({ planId: p.id, limit: 2 });
  await assert.rejects(alice.workflows.listRuns({ limit: 2, cursor: first.nextCursor! }), code('validation_failed'), 'another filter');
  await assert.rejects(alice.workflows.listRuns({ planId: p.id, status: 'running', limit: 2, cursor: first.nextCursor! }), code('validation_failed'));
  await assert.rejects(alice.workflows.listSteps({ runId: full[1]!, cursor: (await alice.workflows.listSteps({ runId: full[0]!, limit: 1 })).nextCursor! }), code('validation_failed'), "another run's cursor");
  await assert.rejects(alice.workflows.listPlans({ cursor: 'garbage' }), code('validation_failed'));
  await assert.rejects(alice.workflows.listRuns({ limit: 101 }), code('validation_failed'));
  await assert.rejects(alice.workflows.listRuns({ status: 'done' }), code('validation_failed'));
});

test('idempotent replays: the same key returns the same result and applies once; another body is idempotency_conflict', async () => {
  const body = { name: 'Replayed', steps: steps() };
  const a = await alice.workflows.createPlan(body, { idempotencyKey: 'wf-plan-1' });
  const b = await alice.workflows.createPlan(body, { idempotencyKey: 'wf-plan-1' });
  assert.deepEqual(b, a);
  await assert.rejects(alice.workflows.createPlan({ ...body, name: 'Other' }, { idempotencyKey: 'wf-plan-1' }), code('idempotency_conflict'));
  assert.equal((await t.querySql('SELECT id FROM workflow_plans WHERE name = ?', ['Replayed'])).length, 1);
  await alice.workflows.publishPlan({ planId: a.id, });
  const r = await alice.workflows.startRun({ planId: a.id, target }, { idempotencyKey: 'wf-run-1' });
  assert.deepEqual(await alice.workflows.startRun({ planId: a.id, target }, { idempotencyKey: 'wf-run-1' }), r);
  assert.equal((await t.querySql('SELECT id FROM workflow_runs WHERE plan_id = ?', [a.id])).length, 1);
  const s0 = (await stepsOf(r.id))[0]!;
  const done = await alice.workflows.completeStep({ stepId: s0.id }, { idempotencyKey: 'wf-step-1' });
  assert.deepEqual(await alice.workflows.completeStep({ stepId: s0.id }, { idempotencyKey: 'wf-step-1' }), done, 'the replay does not advance twice');
  assert.equal((await t.querySql("SELECT seq FROM workflow_logs WHERE run_id = ? AND event = 'approval_requested'", [r.id])).length, 1);
  await assert.rejects(alice.workflows.completeStep({ stepId: s0.id }), code('conflict'), 'without the key it is a second, illegal transition');
});

test('a run is read only by members who may read its target: a DM run, its steps and logs are not_found to a member outside the DM, and absent from its run list', async () => {
  const dm = await t.owner.channels.openDm({ memberIds: [aliceId] });
  const plan = await publishedPlan('Private', [{ title: 'Private step', instructions: 'secret runbook', assignee: aliceId }]);
  const run = await t.owner.workflows.startRun({ planId: plan.id, target: `dm:${dm.id}` });
  const ops = await t.owner.workflows.startRun({ planId: plan.id, target });
  const [step] = (await alice.workflows.listSteps({ runId: run.id, limit: 10 })).steps;
  assert.equal((await alice.workflows.showRun({ runId: run.id })).id, run.id, 'a DM member reads it');
  for (const [what, call] of [
    ['show', () => bob.workflows.showRun({ runId: run.id })],
    ['steps', () => bob.workflows.listSteps({ runId: run.id, limit: 10 })],
    ['logs', () => bob.workflows.runLogs({ runId: run.id, limit: 10 })],
    ['step get', () => bob.workflows.getStep({ stepId: step!.id })],
  ] as const) await assert.rejects(call(), code('not_found'), `bob: ${what}`);
  const walk = async (api: ServerApi) => {
    const ids: string[] = [];
    for (let cursor: string | undefined; ; ) {
      const page = await api.workflows.listRuns({ planId: plan.id, limit: 1, ...(cursor ? { cursor } : {}) });
      ids.push(...page.runs.map((r) => r.id));
      if (!page.hasMore) return ids.sort();
      cursor = page.nextCursor;
    }
  };
  assert.deepEqual(await walk(bob), [ops.id], 'bob lists only the run in a channel he is in');
  assert.deepEqual(await walk(alice), [run.id, ops.id].sort());
  assert.deepEqual(await walk(carol), [], 'carol is in neither');
  assert.deepEqual(await walk(t.owner), [run.id, ops.id].sort(), 'the owner is in the DM and reads every channel');
});

/** Every turn of `api` after feed position `after`, and the position to read on from. */
async function turnsAfter(api: ServerApi, after: number) {
  const turns = [];
  for (let at = after; ; ) {
    const page = await api.turns.read({ after: at, waitMs: 0 });
    turns.push(...page.turns);
    if (page.cursor === at) return { turns, cursor: at };
    at = page.cursor;
  }
}

test("a run an agent starts itself reaches it, each step counted toward the loop bound like its own messages (failed before: agentRun 0 for every step); its own ordinary messages and a copied step text are not turns", async () => {
  await t.owner.channels.create({ id: 'solo' });
  await t.owner.channels.addMember({ channelId: 'solo', memberId: aliceId });
  const solo = 'channel:solo';
  await t.owner.messages.send({ target: solo, content: 'a Human message: the count starts here' });
  let { cursor } = await turnsAfter(alice, 0);
  const mine = Array.from({ length: 9 }, (_, i): StepDefDto => ({ title: `Own step ${i + 1}`, assignee: aliceId }));
  const plan = await publishedPlan('All mine', mine);
  const run = await alice.workflows.startRun({ planId: plan.id, target: solo });
  let copied = '';
  for (let i = 0; i < mine.length; i++) {
    const step = (await stepsOf(run.id))[i]!;
    assert.equal(step.status, 'active');
    const read = await turnsAfter(alice, cursor);
    cursor = read.cursor;
    // Each step still is a turn, and the nine agent-started steps in a row count 1..9 (the daemon's bound stops them).
    assert.deepEqual(read.turns.map((x) => [x.messageId, x.author.id, x.agentRun]), [[step.messageId, aliceId, i + 1]], `step ${i + 1}`);
    copied ||= read.turns[0]!.content;
    await alice.workflows.completeStep({ stepId: step.id });
  }
  assert.equal((await alice.workflows.showRun({ runId: run.id })).status, 'completed');
  await alice.messages.send({ target: solo, content: copied });
  await alice.messages.send({ target: solo, content: '@alice note to self' });
  assert.deepEqual((await turnsAfter(alice, cursor)).turns, [], 'an own message is no turn, even one that copies a step text');
  // A step in a task's discussion reaches its agent although the task is not assigned to it.
  const task = await t.owner.tasks.create({ title: 'Ship the docs' });
  const before = (await turnsAfter(bob, 0)).cursor;
  const other = await alice.workflows.startRun({ planId: (await publishedPlan('On a task', [{ title: 'Proofread', assignee: bobId }])).id, target: `task:${task.id}` });
  const [proof] = await stepsOf(other.id);
  assert.deepEqual((await turnsAfter(bob, before)).turns.map((x) => [x.messageId, x.target]), [[proof!.messageId, `task:${task.id}`]]);
});

test('runs an agent starts count toward the loop bound of their target, across runs and through cancel and restart; a Human-started run still reaches its agent and resets nothing; a step is posted as its plan\'s author (failed before: 12 one-step runs were 12 turns with agentRun 0, posted as the starter)', async () => {
  await t.owner.channels.create({ id: 'loopy' });
  for (const id of [aliceId, bobId]) await t.owner.channels.addMember({ channelId: 'loopy', memberId: id });
  const loopy = 'channel:loopy';
  // A plan a Human wrote, started by an agent: its step is the Human's text, but the agent started it.
  const humanPlan = await t.owner.workflows.createPlan({ name: 'Poke bob', steps: [{ title: 'Look again', assignee: bobId }] });
  await t.owner.workflows.publishPlan({ planId: humanPlan.id, revision: humanPlan.revision });
  await t.owner.messages.send({ target: loopy, content: 'a Human message: the count starts here' });
  let { cursor } = await turnsAfter(bob, 0);
  const step = async (api: ServerApi, planId: string) => {
    const run = await api.workflows.startRun({ planId, target: loopy });
    const read = await turnsAfter(bob, cursor);
    cursor = read.cursor;
    assert.equal(read.turns.length, 1);
    assert.equal(read.turns[0]!.messageId, run.steps[0]!.messageId);
    return { run, turn: read.turns[0]! };
  };
  const runs = [];
  for (let i = 1; i <= 12; i++) {
    const { run, turn } = await step(alice, humanPlan.id);
    runs.push(run);
    assert.deepEqual([turn.agentRun, turn.author.id, turn.author.kind], [i, t.ownerId, 'human'], `run ${i}: counted, posted as the plan's author`);
  }
  for (const r of runs) await alice.workflows.cancelRun({ runId: r.id });
  assert.equal((await step(alice, humanPlan.id)).turn.agentRun, 13, 'cancelling and restarting does not reset the count');
  // A run a Human starts reaches its agent (agentRun 0) and is no Human message: the next agent-started step counts on.
  const byHuman = await step(t.owner, humanPlan.id);
  assert.equal(byHuman.turn.agentRun, 0);
  assert.equal((await step(alice, humanPlan.id)).turn.agentRun, 14);
  // A plan an agent wrote, started by a Human: posted as the agent, never as the Human starter.
  const agentPlan = await publishedPlan('Agent text', [{ title: 'Do what alice wrote', assignee: bobId }]);
  const fromAgent = await step(t.owner, agentPlan.id);
  assert.deepEqual([fromAgent.turn.author.id, fromAgent.turn.author.kind, fromAgent.turn.agentRun], [aliceId, 'agent', 0]);
  // A Human message resets it.
  await t.owner.messages.send({ target: loopy, content: 'carry on' });
  assert.equal((await step(alice, humanPlan.id)).turn.agentRun, 1);
});

test(`a member has at most ${LIVE_RUNS_PER_MEMBER_MAX} live runs: one more is a conflict that stores and posts nothing; a cancel makes room; others are not limited (failed before: runs started without bound)`, async () => {
  const p = await publishedPlan('Flood', [{ title: 'Look', assignee: bobId }]);
  const runs = async () => Number((await t.querySql<{ n: number }>('SELECT COUNT(*) AS n FROM workflow_runs'))[0]?.n);
  const live = Number((await t.querySql<{ n: number }>(`SELECT COUNT(*) AS n FROM workflow_runs WHERE started_by = ? AND status IN ('running', 'paused', 'parked')`, [aliceId]))[0]?.n);
  await t.runSql(
    `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?) INSERT INTO workflow_runs (id, plan_id, version, trigger_id, target, status, current_step, step_count, started_by, log_count, revision, created_at, updated_at) SELECT 'wfr_fill' || i, ?, 1, NULL, ?, 'paused', 0, 1, ?, 0, 1, 1, 1 FROM s`,
    [LIVE_RUNS_PER_MEMBER_MAX - live, p.id, target, aliceId],
  );
  const before = await runs();
  const posts = (await bob.messages.list({ target, limit: 100 })).messages.length;
  await assert.rejects(alice.workflows.startRun({ planId: p.id, target }), (e: unknown) => code('conflict')(e) && /at most 100 live runs per member/.test((e as Error).message));
  assert.equal(await runs(), before);
  assert.equal((await bob.messages.list({ target, limit: 100 })).messages.length, posts, 'no step was delivered');
  assert.equal((await bob.workflows.startRun({ planId: p.id, target })).status, 'running', 'bob is not limited by alice');
  await t.runSql("UPDATE workflow_runs SET status = 'cancelled' WHERE id = 'wfr_fill1'");
  assert.equal((await alice.workflows.startRun({ planId: p.id, target })).status, 'running');
});

test("a run's approval step is delivered even when its starter holds the most pending requests a member may open by hand", async () => {
  const p = await publishedPlan('Gate', [{ title: 'Sign off', assignee: 'approval' }]);
  await t.runSql(
    "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 100) INSERT INTO approvals (id, subject, reason, notify, status, requested_by, decided_by, note, revision, created_at, updated_at) SELECT 'apr_wfill' || i, 'step:wfs_x', 'fill', ?, 'pending', ?, NULL, NULL, 1, 1, 1 FROM s",
    [target, bobId],
  );
  const task = await bob.tasks.create({ title: 'gate' });
  await assert.rejects(bob.approvals.request({ subject: `task:${task.id}`, reason: 'by hand' }), code('conflict'));
  const run = await bob.workflows.startRun({ planId: p.id, target });
  const [step] = await (async () => (await bob.workflows.listSteps({ runId: run.id, limit: 10 })).steps)();
  assert.equal(step!.status, 'active');
  assert.match(String(step!.approvalId), /^apr[1-9]\d+$/);
});

test('a step is named as an approval subject only by a member who may read its run; anyone else gets a missing step\'s answer', async () => {
  const plan = await publishedPlan('Subject check');
  const run = await t.owner.workflows.startRun({ planId: plan.id, target });
  const stepId = run.steps[0]!.id;
  await t.owner.channels.addMember({ channelId: 'general', memberId: carolId });
  const before = (await t.owner.approvals.list({ limit: 100 })).approvals.length;
  const hidden = await carol.approvals.request({ subject: stepId, reason: 'probe', notify: 'channel:general' }).catch((e: { code?: string; message?: string }) => e);
  const missing = await carol.approvals.request({ subject: 'wfs9999999999', reason: 'probe', notify: 'channel:general' }).catch((e: { code?: string; message?: string }) => e);
  assert.equal((hidden as { code?: string }).code, 'not_found');
  assert.equal((hidden as Error).message.replace(stepId, 'X'), (missing as Error).message.replace('wfs9999999999', 'X'), 'the same answer as for a step that does not exist');
  assert.equal((await t.owner.approvals.list({ limit: 100 })).approvals.length, before, 'nothing stored');
  const ok = await alice.approvals.request({ subject: stepId, reason: 'please look', notify: target });
  assert.equal(ok.subject, `step:${stepId}`);
  await alice.approvals.cancel({ approvalId: ok.id });
});

test("a run whose agent step's assignee cannot read its target is refused at start, naming the step, and stores nothing (failed before: accepted, the step waited forever)", async () => {
  const plan = await publishedPlan('Unreachable', [
    { title: 'Draft', assignee: aliceId },
    { title: 'Check the numbers', assignee: carolId },
  ]);
  const before = (await t.owner.workflows.listRuns({ planId: plan.id, limit: 100 })).runs.length;
  const e = await t.owner.workflows.startRun({ planId: plan.id, target }).then(() => undefined, (x: { code?: string; message?: string }) => x);
  assert.equal(e?.code, 'validation_failed');
  assert.match(String(e?.message), /step 2 \(Check the numbers\) goes to carol, who cannot read channel:ops/);
  assert.equal((await t.owner.workflows.listRuns({ planId: plan.id, limit: 100 })).runs.length, before, 'no run stored');
});

test('a step whose assignee lost the target mid-run is a logged delivery failure, not a message they never see', async () => {
  const dave = await t.owner.members.createAgent({ name: 'dave' });
  await t.owner.channels.addMember({ channelId: 'ops', memberId: dave.agent.id });
  const plan = await publishedPlan('Lost reader', [
    { title: 'First', assignee: aliceId },
    { title: 'Second', assignee: dave.agent.id },
  ]);
  const run = await t.owner.workflows.startRun({ planId: plan.id, target });
  await t.runSql('DELETE FROM channel_members WHERE channel_id = ? AND member_id = ?', ['ops', dave.agent.id]);
  await alice.workflows.completeStep({ stepId: run.steps[0]!.id });
  const logs = (await t.owner.workflows.runLogs({ runId: run.id, limit: 100 })).logs;
  assert.deepEqual(logs.filter((l) => l.event === 'delivery_failed').map((l) => l.stepId), [run.steps[1]!.id]);
  assert.equal((await t.owner.workflows.getStep({ stepId: run.steps[1]!.id })).messageId, null, 'nothing posted for dave');
});

test('a DM trigger, run and step answer a non-member exactly as missing ones do, for every read and write, before any other check (failed before: listed, shown, denied or named its target)', async () => {
  const dm = await t.owner.channels.openDm({ memberIds: [aliceId] });
  const plan = await publishedPlan('DM flow', [{ title: 'Private', assignee: aliceId }]);
  const tr = await t.owner.workflows.createTrigger({ planId: plan.id, name: 'DM trigger', target: `dm:${dm.id}` });
  const run = await t.owner.workflows.startRun({ triggerId: tr.id });
  const stepId = run.steps[0]!.id;
  assert.equal((await alice.workflows.showTrigger({ triggerId: tr.id })).id, tr.id, 'a DM member reads it');
  const answer = (e: unknown) => JSON.stringify([(e as { code?: string }).code, (e as Error).message]);
  const same = async (what: string, hidden: () => Promise<unknown>, missing: () => Promise<unknown>) => {
    const h = await hidden().then(() => 'ok', answer);
    assert.equal(h, await missing().then(() => 'ok', answer), what);
    assert.match(h, /not_found/, what);
  };
  for (const who of [bob, carol]) {
    await same('trigger show', () => who.workflows.showTrigger({ triggerId: tr.id }), () => who.workflows.showTrigger({ triggerId: 'wft9999999999' }));
    await same('trigger update', () => who.workflows.updateTrigger({ triggerId: tr.id, revision: 1, name: 'mine' }), () => who.workflows.updateTrigger({ triggerId: 'wft9999999999', revision: 1, name: 'mine' }));
    for (const op of ['enable', 'disable', 'archive'] as const) await same(`trigger ${op}`, () => who.workflows[`${op}Trigger` as const]({ triggerId: tr.id }), () => who.workflows[`${op}Trigger` as const]({ triggerId: 'wft9999999999' }));
    await same('run from the trigger', () => who.workflows.startRun({ triggerId: tr.id }), () => who.workflows.startRun({ triggerId: 'wft9999999999' }));
    await same('run cancel', () => who.workflows.cancelRun({ runId: run.id }), () => who.workflows.cancelRun({ runId: 'wfr9999999999' }));
    for (const o of ['complete', 'fail', 'pause', 'park'] as const) await same(`step ${o}`, () => who.workflows[`${o}Step` as const]({ stepId }), () => who.workflows[`${o}Step` as const]({ stepId: 'wfs9999999999' }));
    await same('step get', () => who.workflows.getStep({ stepId }), () => who.workflows.getStep({ stepId: 'wfs9999999999' }));
  }
  const listed = async (api: ServerApi) => {
    const ids: string[] = [];
    for (let cursor: string | undefined; ; ) {
      const page = await api.workflows.listTriggers({ planId: plan.id, limit: 1, ...(cursor ? { cursor } : {}) });
      ids.push(...page.triggers.map((x) => x.id));
      if (!page.hasMore) return ids;
      cursor = page.nextCursor;
    }
  };
  assert.deepEqual(await listed(bob), [], 'absent from a non-member\'s list');
  assert.deepEqual(await listed(alice), [tr.id]);
  assert.ok(!(await bob.workflows.listTriggers({ limit: 100 })).triggers.some((x) => x.id === tr.id));
  // Nothing changed: the trigger is enabled at revision 1, the run is running, its step active.
  assert.deepEqual([(await t.owner.workflows.showTrigger({ triggerId: tr.id })).status, (await t.owner.workflows.showTrigger({ triggerId: tr.id })).revision], ['enabled', 1]);
  assert.deepEqual([(await t.owner.workflows.showRun({ runId: run.id })).status, (await t.owner.workflows.getStep({ stepId })).status], ['running', 'active']);
});

test("a run's approval step is decided only by its starter, an owner/admin or a decider it names; any other Human is denied, one who cannot read the run gets not_found (failed before: any Human decided)", async () => {
  const human = async (name: string, role?: 'admin') => {
    const j = await t.client.join((await t.owner.members.invite({ name, ...(role ? { role } : {}) })).code);
    return { id: j.member.id, api: t.client.as(j.credential) };
  };
  const [hana, ivan, adam, nora] = [await human('hana'), await human('ivan'), await human('adam', 'admin'), await human('nora')];
  for (const m of [hana, ivan, adam]) await t.owner.channels.addMember({ channelId: 'ops', memberId: m.id });
  await assert.rejects(alice.workflows.createPlan({ name: 'x', steps: [{ title: 'x', assignee: aliceId, deciders: [hana.id] }] }), code('validation_failed'), 'deciders only on an approval step');
  await assert.rejects(alice.workflows.createPlan({ name: 'x', steps: [{ title: 'x', assignee: 'approval', deciders: [bobId] }] }), code('validation_failed'), 'an agent never decides');
  await assert.rejects(alice.workflows.createPlan({ name: 'x', steps: [{ title: 'x', assignee: 'approval', deciders: [hana.id, hana.id] }] }), code('validation_failed'), 'distinct');
  const p = await t.owner.workflows.createPlan({ name: 'Gated', steps: [{ title: 'Sign off', assignee: 'approval', deciders: [hana.id] }] });
  await t.owner.workflows.publishPlan({ planId: p.id, revision: p.revision });
  assert.deepEqual((await t.owner.workflows.planVersion({ planId: p.id, version: '1' })).steps[0]!.deciders, [hana.id]);
  const gate = async (starter: ServerApi) => {
    const run = await starter.workflows.startRun({ planId: p.id, target });
    return { run, approvalId: run.steps[0]!.approvalId! };
  };
  // Started by an agent: the owner, an admin or hana may decide; ivan (in ops) is denied; nora (not in ops) gets not_found.
  const a = await gate(bob);
  assert.match((await ivan.api.approvals.get({ approvalId: a.approvalId })).reason, /May decide: an admin, hana\./);
  await assert.rejects(ivan.api.approvals.approve({ approvalId: a.approvalId }), code('denied'));
  await assert.rejects(ivan.api.approvals.reject({ approvalId: a.approvalId }), code('denied'));
  await assert.rejects(nora.api.approvals.approve({ approvalId: a.approvalId }), code('not_found'));
  assert.equal((await t.owner.approvals.get({ approvalId: a.approvalId })).status, 'pending', 'nothing decided');
  assert.equal((await hana.api.approvals.approve({ approvalId: a.approvalId })).status, 'approved');
  const b = await gate(bob);
  assert.equal((await adam.api.approvals.reject({ approvalId: b.approvalId })).status, 'rejected', 'an admin decides');
  // Started by ivan: the starter decides his own run's gate.
  const c = await gate(ivan.api);
  assert.match((await ivan.api.approvals.get({ approvalId: c.approvalId })).reason, /May decide: ivan \(the starter\), an admin, hana\./);
  assert.equal((await ivan.api.approvals.approve({ approvalId: c.approvalId })).status, 'approved');
  await tick();
  assert.deepEqual([(await alice.workflows.showRun({ runId: a.run.id })).status, (await alice.workflows.showRun({ runId: b.run.id })).status, (await alice.workflows.showRun({ runId: c.run.id })).status], ['completed', 'failed', 'completed']);
  // An approval that is no run's step keeps its rule: any Human who reads its target decides.
  const task = await t.owner.tasks.create({ title: 'plain' });
  const plain = await alice.approvals.request({ subject: `task:${task.id}`, reason: 'plain', notify: target });
  assert.equal((await ivan.api.approvals.approve({ approvalId: plain.id })).status, 'approved');
});

test('a member has at most LIVE_PLANS_PER_MEMBER_MAX live plans and LIVE_TRIGGERS_PER_MEMBER_MAX live triggers: one more is a conflict naming the limit that stores nothing; archiving makes room; others are not limited (failed before: unbounded)', async () => {
  const dave = await t.owner.members.createAgent({ name: 'planner' });
  const d = t.client.as(dave.credential);
  await t.owner.channels.addMember({ channelId: 'ops', memberId: dave.agent.id });
  const p = await d.workflows.createPlan({ name: 'First', steps: [{ title: 'x', assignee: bobId }] });
  const plans = async () => Number((await t.querySql<{ n: number }>('SELECT COUNT(*) AS n FROM workflow_plans'))[0]?.n);
  await t.runSql(
    `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?) INSERT INTO workflow_plans (id, name, status, latest_version, published_version, created_by, revision, created_at, updated_at) SELECT 'wfp_fill' || i, 'fill', 'active', 1, NULL, ?, 1, 1, 1 FROM s`,
    [LIVE_PLANS_PER_MEMBER_MAX - 1, dave.agent.id],
  );
  const before = await plans();
  await assert.rejects(d.workflows.createPlan({ name: 'One more', steps: [{ title: 'x', assignee: bobId }] }), (e: unknown) => code('conflict')(e) && (e as Error).message === `at most ${LIVE_PLANS_PER_MEMBER_MAX} live plans per member`);
  assert.equal(await plans(), before, 'nothing stored');
  assert.equal((await alice.workflows.createPlan({ name: 'alice is not limited', steps: [{ title: 'x', assignee: bobId }] })).status, 'active');
  await t.runSql("UPDATE workflow_plans SET status = 'archived' WHERE id = 'wfp_fill1'");
  assert.equal((await d.workflows.createPlan({ name: 'Room again', steps: [{ title: 'x', assignee: bobId }] })).status, 'active');

  const triggers = async () => Number((await t.querySql<{ n: number }>('SELECT COUNT(*) AS n FROM workflow_triggers'))[0]?.n);
  await t.runSql(
    `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?) INSERT INTO workflow_triggers (id, plan_id, name, kind, target, status, created_by, revision, created_at, updated_at) SELECT 'wft_fill' || i, ?, 'fill', 'manual', ?, CASE WHEN i % 2 = 0 THEN 'disabled' ELSE 'enabled' END, ?, 1, 1, 1 FROM s`,
    [LIVE_TRIGGERS_PER_MEMBER_MAX, p.id, target, dave.agent.id],
  );
  const tBefore = await triggers();
  await assert.rejects(d.workflows.createTrigger({ planId: p.id, name: 'One more', target }), (e: unknown) => code('conflict')(e) && (e as Error).message === `at most ${LIVE_TRIGGERS_PER_MEMBER_MAX} live triggers per member`);
  assert.equal(await triggers(), tBefore, 'nothing stored');
  assert.equal((await alice.workflows.createTrigger({ planId: p.id, name: 'alice is not limited', target })).status, 'enabled');
  await d.workflows.archiveTrigger({ triggerId: 'wft_fill2', });
  assert.equal((await d.workflows.createTrigger({ planId: p.id, name: 'Room again', target })).status, 'enabled');
});
