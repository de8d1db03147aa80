// Tests the workflow projections as units: each DTO kind projects to exactly its schema (compact time, nulls and defaults
// omitted, people by name, the ids later calls take), and a run with every step at its bounds stays well inside one result.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import { ITEM_BYTES_MAX, jsonBytes, RESULT_BUDGET, TRUNCATED_MARKER } from '../../shared/bounds.js';
import { MEMBER_NAME } from '../member/contract.js';
import { BOUNDS, LOG_NOTE_BYTES, STEPS_MAX, type LogEntryDto, type PlanDto, type RunDetailDto, type StepDto, type TriggerDto } from './contract.js';
import { WORKFLOW_ACTIONS } from './actions.js';
import * as P from './project.js';
import type { ActionDescriptor } from '../../catalog/types.js';

const [workflowPlan, workflowTrigger, workflowRun, workflowStep] = WORKFLOW_ACTIONS.map((a) => a.descriptor) as [ActionDescriptor, ActionDescriptor, ActionDescriptor, ActionDescriptor];

const T0 = '2026-12-01T10:33:35.418Z';
const T1 = '2026-12-01T10:34:02.001Z';
const alice = { name: 'alice', kind: 'agent' as const };
const ada = { name: 'Ada', kind: 'human' as const };
const check = (schema: TSchema, v: unknown) => assert.equal(Value.Check(schema, v), true, `${JSON.stringify(v)}: ${[...Value.Errors(schema, v)].map((e) => `${e.path} ${e.message}`).join('; ')}`);

const plan: PlanDto = { id: 'wfp_1', name: 'Release', status: 'active', latestVersion: 2, publishedVersion: null, createdBy: 'agt_1', creator: alice, revision: 3, createdAt: T0, updatedAt: T1 };
const step = (over: Partial<StepDto> = {}): StepDto => ({ id: 'wfs_1', runId: 'wfr_1', index: 0, title: 'Draft', instructions: '', assignee: 'agt_1', agent: alice, status: 'active', approvalId: null, messageId: 'msg_1', note: null, revision: 2, createdAt: T0, updatedAt: T1, ...over });
const run: RunDetailDto = {
  id: 'wfr_1', planId: 'wfp_1', planName: 'Release', version: 1, triggerId: null, target: 'channel:ops', status: 'running', currentStep: 1, stepCount: 2,
  startedBy: 'hum_1', starter: ada, revision: 4, createdAt: T0, updatedAt: T1,
  steps: [step({ status: 'completed', note: 'done' }), step({ id: 'wfs_2', index: 1, assignee: 'approval', agent: null, approvalId: 'apr_1', messageId: null })],
};

test('a plan: status only when archived, publishedVersion only once published, creator by name (kind); list items without by/time', () => {
  const v = P.projectPlan(plan);
  assert.deepEqual(v, { id: 'wfp_1', name: 'Release', latestVersion: 2, revision: 3, by: 'alice (agent)', updatedAt: '20261201T103402Z' });
  check(P.PlanView, v);
  const item = P.projectPlanListItem({ ...plan, status: 'archived', publishedVersion: 1 });
  assert.deepEqual(item, { id: 'wfp_1', name: 'Release', status: 'archived', latestVersion: 2, publishedVersion: 1, revision: 3 });
  check(P.PlanListItem, item);
  check(workflowPlan.output, { plans: [item], hasMore: false });
  // A version's steps are what plan update takes back: assignee ids stay; the plan (asked for) is not repeated.
  const ver = P.projectVersion({ planId: 'wfp_1', version: 1, state: 'published', steps: [{ title: 'Draft', assignee: 'agt_1' }, { title: 'OK', instructions: 'Check', assignee: 'approval' }], createdAt: T0, publishedAt: T1 });
  assert.deepEqual(ver, { version: 1, state: 'published', steps: [{ title: 'Draft', assignee: 'agt_1' }, { title: 'OK', instructions: 'Check', assignee: 'approval' }], publishedAt: '20261201T103402Z' });
  assert.equal('publishedAt' in P.projectVersion({ planId: 'wfp_1', version: 2, state: 'draft', steps: [], createdAt: T0, publishedAt: null }), false);
  check(workflowPlan.output, { plan: v, version: ver });
});

test('a trigger drops its kind (always manual) and createdAt; list items drop by and updatedAt', () => {
  const t: TriggerDto = { id: 'wft_1', planId: 'wfp_1', name: 'Train', kind: 'manual', target: 'channel:ops', status: 'disabled', createdBy: 'hum_1', creator: ada, revision: 2, createdAt: T0, updatedAt: T1 };
  const v = P.projectTrigger(t);
  assert.deepEqual(v, { id: 'wft_1', planId: 'wfp_1', name: 'Train', target: 'channel:ops', status: 'disabled', revision: 2, by: 'Ada (human)', updatedAt: '20261201T103402Z' });
  check(workflowTrigger.output, { trigger: v });
  check(workflowTrigger.output, { triggers: [P.projectTriggerListItem(t)], hasMore: true, nextCursor: 'c' });
  assert.deepEqual(Object.keys(P.projectTriggerListItem(t)), ['id', 'planId', 'name', 'target', 'status', 'revision']);
});

test('a run shows its plan by name, progress while live, the starter by name, its steps with the ids step and approval calls take', () => {
  const v = P.projectRun(run);
  assert.deepEqual(v, {
    id: 'wfr_1', plan: 'Release', planId: 'wfp_1', version: 1, target: 'channel:ops', progress: '2/2', by: 'Ada (human)', updatedAt: '20261201T103402Z',
    steps: [
      { id: 'wfs_1', title: 'Draft', agent: 'alice', status: 'completed', note: 'done' },
      { id: 'wfs_2', title: 'Draft', status: 'active', approvalId: 'apr_1' },
    ],
  });
  check(workflowRun.output, { run: v });
  const over = P.projectRun({ ...run, status: 'completed', currentStep: null, triggerId: 'wft_1' });
  assert.deepEqual([over.status, 'progress' in over, over.triggerId], ['completed', false, 'wft_1']);
  // A list item: status only when not running, progress while live; plan by name (run show has planId and the starter).
  const items = [run, { ...run, id: 'wfr_2', status: 'paused' as const }, { ...run, id: 'wfr_3', status: 'cancelled' as const, currentStep: null }].map(P.projectRunListItem);
  assert.deepEqual(items, [
    { id: 'wfr_1', plan: 'Release', progress: '2/2' },
    { id: 'wfr_2', plan: 'Release', status: 'paused', progress: '2/2' },
    { id: 'wfr_3', plan: 'Release', status: 'cancelled' },
  ]);
  check(workflowRun.output, { runs: items, hasMore: false });
  assert.equal(Value.Check(workflowRun.output, { runs: [{ ...items[0], status: 'running' }], hasMore: false }), false, 'running is said by absence only');
});

test('a step: 1-based position, agent name (absent: approval step), status (absent: pending), optional fields only when set; list items leave instructions and the message to get', () => {
  const v = P.projectStep(step({ instructions: 'docs/release.md', note: '' }));
  assert.deepEqual(v, { id: 'wfs_1', runId: 'wfr_1', step: 1, title: 'Draft', instructions: 'docs/release.md', agent: 'alice', status: 'active', messageId: 'msg_1', updatedAt: '20261201T103402Z' });
  check(workflowStep.output, { step: v });
  const item = P.projectStepItem(step({ status: 'pending', messageId: null, instructions: 'x' }));
  assert.deepEqual(item, { id: 'wfs_1', title: 'Draft', agent: 'alice' }, 'pending: no status');
  assert.deepEqual(P.projectStep(step({ index: 2, assignee: 'approval', agent: null, approvalId: 'apr_1', messageId: null, status: 'completed', note: 'go' })), { id: 'wfs_1', runId: 'wfr_1', step: 3, title: 'Draft', status: 'completed', approvalId: 'apr_1', note: 'go', updatedAt: '20261201T103402Z' });
  check(workflowStep.output, { steps: [item], hasMore: false });
  // A long note is clipped in a list (step get has it whole).
  const long = 'n'.repeat(BOUNDS.note.chars);
  assert.ok(P.projectStepItem(step({ note: long })).note!.endsWith(TRUNCATED_MARKER));
  assert.equal(P.projectStep(step({ note: long })).note, long);
});

test('a log page: step by position, actor by name (kind once), time of day when on the same UTC day as the entry above', () => {
  const log = (over: Partial<LogEntryDto>): LogEntryDto => ({ seq: 1, runId: 'wfr_1', stepId: null, stepIndex: null, event: 'started', actorId: 'hum_1', actor: ada, note: null, createdAt: T0, ...over });
  const page = P.projectLogPage([log({}), log({ seq: 2, stepId: 'wfs_1', stepIndex: 0, event: 'paused', actorId: 'agt_1', actor: alice, note: 'waiting', createdAt: T1 }), log({ seq: 3, event: 'cancelled', createdAt: '2026-12-02T00:00:01.000Z' })]);
  assert.deepEqual(page, {
    logs: [{ event: 'started', by: 'Ada', at: '20261201T103335Z' }, { event: 'paused', step: 1, by: 'alice', at: '103402', note: 'waiting' }, { event: 'cancelled', by: 'Ada', at: '20261202T000001Z' }],
    authors: { Ada: 'human', alice: 'agent' },
  });
  check(workflowRun.output, { ...page, hasMore: true, nextCursor: 'c' });
});

test('a run with STEPS_MAX steps, every field at its bound, stays far inside one Exec result (its steps are bounded too)', () => {
  const id = 'i'.repeat(100);
  const worst = (bytes: number) => '\u0001'.repeat(Math.floor(bytes / 6));
  const name = { name: worst(MEMBER_NAME.bytes), kind: 'agent' as const };
  const s = step({ id, runId: id, title: worst(BOUNDS.title.bytes), instructions: worst(BOUNDS.instructions.bytes), assignee: id, agent: name, approvalId: id, messageId: id, note: worst(BOUNDS.note.bytes) });
  const v = P.projectRun({ ...run, id, planId: id, planName: worst(BOUNDS.name.bytes), triggerId: id, target: 'x'.repeat(300), starter: name, steps: Array.from({ length: STEPS_MAX }, () => s) });
  assert.ok(v.steps.every((x) => jsonBytes(x.note) <= LOG_NOTE_BYTES + 2));
  // The run view is an item plus up to STEPS_MAX step items: under two items' worth, and an Exec envelope of it keeps
  // the same 32 KiB margin a page of one item keeps (workflow is Exec only; no MCP double encoding).
  assert.ok(jsonBytes(v) <= 2 * ITEM_BYTES_MAX, `${jsonBytes(v)} bytes`);
  assert.ok(jsonBytes({ ok: true, data: { run: v } }) <= RESULT_BUDGET - 32 * 1024);
});
