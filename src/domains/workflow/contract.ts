// Owns the `workflow` domain contract: plan/trigger/run/step/log DTOs (TypeBox), statuses, the closed operation matrix,
// every bound in characters and serialized bytes, who may do what, and its server calls (WORKFLOW).
import { Type, type Static } from '@sinclair/typebox';
import { MemberRef, PageOf, Strict, Timestamp } from '../../catalog/schemas.js';
import type { OperationPolicy } from '../../catalog/types.js';
import type { TextBound } from '../../shared/bounds.js';
import { endpoints } from '../../shared/endpoint.js';

/**
 * Spec §Result Boundaries: one closed operation matrix. Reads first, then side effects; each read's result policy says
 * how an over-budget result continues (cursor: a smaller page; narrow: one resource by id).
 */
export const MATRIX = {
  plan: { list: 'cursor', show: 'narrow', version: 'narrow', validate: 'narrow', create: 'mutation', update: 'mutation', archive: 'mutation', publish: 'mutation' },
  trigger: { list: 'cursor', show: 'narrow', validate: 'narrow', create: 'mutation', update: 'mutation', enable: 'mutation', disable: 'mutation', archive: 'mutation' },
  run: { list: 'cursor', show: 'narrow', logs: 'cursor', start: 'mutation', cancel: 'mutation' },
  step: { list: 'cursor', get: 'narrow', complete: 'mutation', fail: 'mutation', pause: 'mutation', park: 'mutation' },
} as const;
export type Resource = keyof typeof MATRIX;
export type OperationOf<R extends Resource> = keyof (typeof MATRIX)[R] & string;

export function operationPolicies(r: Resource): Record<string, OperationPolicy> {
  return Object.fromEntries(Object.entries(MATRIX[r]).map(([op, p]) => [op, { risk: p === 'mutation' ? 'write' : 'read', resultPolicy: p }]));
}

/** Most steps one plan version holds; with every step at its bounds a plan version stays far under ITEM_BYTES_MAX. */
export const STEPS_MAX = 16;
/** Serialized bytes of one version's steps (the aggregate), so a version DTO stays under ITEM_BYTES_MAX. */
export const STEPS_BYTES_MAX = 14 * 1024;
/** Pause/park entries one run may log (complete, fail, cancel and delivery always log); beyond it pause/park conflict. */
export const RUN_LOG_MAX = 400;
/** The literal assignee of a step that waits for a Human approval instead of an agent. */
export const APPROVAL_ASSIGNEE = 'approval';

export const BOUNDS = {
  name: { field: 'name', min: 1, chars: 120, bytes: 240 },
  title: { field: 'title', min: 1, chars: 120, bytes: 240 },
  instructions: { field: 'instructions', min: 0, chars: 400, bytes: 480 },
  note: { field: 'note', min: 0, chars: 1000, bytes: 1200 },
} as const satisfies Record<string, TextBound>;
/** A log entry keeps at most this much of its note. */
export const LOG_NOTE_BYTES = 240;

export const PLAN_STATUSES = ['active', 'archived'] as const;
export const VERSION_STATES = ['draft', 'published'] as const;
export const TRIGGER_STATUSES = ['enabled', 'disabled', 'archived'] as const;
export const RUN_STATUSES = ['running', 'paused', 'parked', 'completed', 'failed', 'cancelled'] as const;
export const STEP_STATUSES = ['pending', 'active', 'paused', 'parked', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export type StepStatus = (typeof STEP_STATUSES)[number];
export type StepOutcome = 'complete' | 'fail' | 'pause' | 'park';

/**
 * Step transitions by the step's assignee only (an approval step moves only with its approval's decision):
 * complete/fail from active, paused or parked; pause from active or parked; park from active or paused.
 * Anything else (a pending or finished step, the same state again) is a conflict that changes nothing.
 */
export const STEP_MOVES: Readonly<Record<StepOutcome, { from: readonly StepStatus[]; to: StepStatus }>> = {
  complete: { from: ['active', 'paused', 'parked'], to: 'completed' },
  fail: { from: ['active', 'paused', 'parked'], to: 'failed' },
  pause: { from: ['active', 'parked'], to: 'paused' },
  park: { from: ['active', 'paused'], to: 'parked' },
};
/** A run in one of these may be cancelled (by its starter or an owner/admin); the others are final. */
export const LIVE_RUN: readonly RunStatus[] = ['running', 'paused', 'parked'];
/** Live runs one member has started at once: each delivers steps (mentions, approvals) to others, so it is bounded. */
export const LIVE_RUNS_PER_MEMBER_MAX = 100;
/** Active (not archived) plans one member has created: every plan is listed to every member, so it is bounded. */
export const LIVE_PLANS_PER_MEMBER_MAX = 200;
/** Enabled or disabled (not archived) triggers one member has created. */
export const LIVE_TRIGGERS_PER_MEMBER_MAX = 200;
/** Members an approval step may name as its deciders, besides the run's starter and the owner/admins. */
export const DECIDERS_MAX = 8;

const lit = <T extends readonly string[]>(xs: T) => Type.Union(xs.map((x) => Type.Literal(x)));
const text = (b: TextBound, description?: string) => Type.String({ minLength: b.min, maxLength: b.chars, ...(description ? { description } : {}) });

export const StepDef = Strict({
  title: text(BOUNDS.title),
  instructions: Type.Optional(text(BOUNDS.instructions)),
  assignee: Type.String({ minLength: 1, maxLength: 100, description: 'Agent member id, or "approval" for a Human approval.' }),
  deciders: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: DECIDERS_MAX, description: 'Approval step: Humans (member ids) who may decide besides the starter and admins.' })),
});
export type StepDefDto = Static<typeof StepDef>;
export const Steps = Type.Array(StepDef, { minItems: 1, maxItems: STEPS_MAX });

export const Plan = Strict({
  id: Type.String(),
  name: Type.String(),
  status: lit(PLAN_STATUSES),
  latestVersion: Type.Integer(),
  publishedVersion: Type.Union([Type.Integer(), Type.Null()]),
  createdBy: Type.String(),
  /** createdBy's display name and kind, read with the row (one batched lookup per page). */
  creator: MemberRef,
  revision: Type.Integer(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type PlanDto = Static<typeof Plan>;

export const PlanVersion = Strict({
  planId: Type.String(),
  version: Type.Integer(),
  state: lit(VERSION_STATES),
  steps: Type.Array(StepDef),
  createdAt: Timestamp,
  publishedAt: Type.Union([Timestamp, Type.Null()]),
});
export type PlanVersionDto = Static<typeof PlanVersion>;

export const Trigger = Strict({
  id: Type.String(),
  planId: Type.String(),
  name: Type.String(),
  kind: Type.Literal('manual'),
  target: Type.String({ description: 'Where its runs deliver steps.' }),
  status: lit(TRIGGER_STATUSES),
  createdBy: Type.String(),
  creator: MemberRef,
  revision: Type.Integer(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type TriggerDto = Static<typeof Trigger>;

export const Run = Strict({
  id: Type.String(),
  planId: Type.String(),
  /** The plan's current name and startedBy's display name, read with the row (one batched lookup per page). */
  planName: Type.String(),
  version: Type.Integer(),
  triggerId: Type.Union([Type.String(), Type.Null()]),
  target: Type.String(),
  status: lit(RUN_STATUSES),
  currentStep: Type.Union([Type.Integer(), Type.Null()]),
  stepCount: Type.Integer(),
  startedBy: Type.String(),
  starter: MemberRef,
  revision: Type.Integer(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type RunDto = Static<typeof Run>;

export const Step = Strict({
  id: Type.String(),
  runId: Type.String(),
  index: Type.Integer({ description: '0-based position in the plan.' }),
  title: Type.String(),
  instructions: Type.String(),
  assignee: Type.String(),
  /** The assignee agent's display name and kind; null for an approval step. */
  agent: Type.Union([MemberRef, Type.Null()]),
  status: lit(STEP_STATUSES),
  approvalId: Type.Union([Type.String(), Type.Null()]),
  messageId: Type.Union([Type.String(), Type.Null()]),
  note: Type.Union([Type.String(), Type.Null()]),
  revision: Type.Integer(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type StepDto = Static<typeof Step>;

/** A run as show, start and cancel return it: with its steps in plan order (at most STEPS_MAX), read in the same transaction. */
export const RunDetail = Strict({ ...Run.properties, steps: Type.Array(Step, { maxItems: STEPS_MAX }) });
export type RunDetailDto = Static<typeof RunDetail>;

export const LogEntry = Strict({
  seq: Type.Integer(),
  runId: Type.String(),
  stepId: Type.Union([Type.String(), Type.Null()]),
  /** The step's 0-based position in the plan, with stepId. */
  stepIndex: Type.Union([Type.Integer(), Type.Null()]),
  event: Type.String(),
  actorId: Type.String(),
  actor: MemberRef,
  note: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
});
export type LogEntryDto = Static<typeof LogEntry>;

export const PlanPage = PageOf('plans', Plan);
export type PlanPage = Static<typeof PlanPage>;
export const TriggerPage = PageOf('triggers', Trigger);
export type TriggerPage = Static<typeof TriggerPage>;
export const RunPage = PageOf('runs', Run);
export type RunPage = Static<typeof RunPage>;
export const StepPage = PageOf('steps', Step);
export type StepPage = Static<typeof StepPage>;
export const LogPage = PageOf('logs', LogEntry);
export type LogPage = Static<typeof LogPage>;
export const Validation = Strict({ valid: Type.Boolean(), problem: Type.Optional(Type.String()) });
export type Validation = Static<typeof Validation>;

const opt = Type.Optional;
export const Target = Type.String({ minLength: 1, maxLength: 300, description: 'Exact message target, e.g. channel:general.' });
export const Revision = Type.Integer({ minimum: 1, description: 'The revision you read; a concurrent change is a conflict.' });
export const Note = text(BOUNDS.note);
const Name = text(BOUNDS.name);
const TriggerBody = Strict({ planId: Type.String(), name: Name, target: Target });
const RevisionBody = Strict({ revision: opt(Revision) });
const NoteBody = Strict({ note: opt(Note) });
const PageQuery = { limit: opt(Type.Integer()), cursor: opt(Type.String()) };
const P = '/v1/workflow/plans';
const T = '/v1/workflow/triggers';
const R = '/v1/workflow/runs';
const S = '/v1/workflow/steps';

/**
 * The workflow server calls: each one is a route on the server and a method of the daemon's `api.workflows`. Plans,
 * triggers and runs list createdAt DESC, id DESC; steps in plan order; logs in written order (limit 1..100, default 20).
 * A run's show/start/cancel carry its steps. An operation in the path (publish, enable, complete…) is its own call.
 */
export const WORKFLOW = endpoints({
  createPlan: { method: 'POST', path: P, body: Strict({ name: Name, steps: Steps }), output: Plan },
  listPlans: { method: 'GET', path: P, query: Type.Object({ status: opt(Type.String()), ...PageQuery }), output: PlanPage },
  validatePlan: { method: 'POST', path: `${P}/validate`, body: Strict({ name: opt(Name), steps: Steps }), output: Validation },
  showPlan: { method: 'GET', path: `${P}/{planId}`, output: Strict({ plan: Plan, version: PlanVersion }) },
  /** `version` travels as its text; the server checks it is a positive integer. */
  planVersion: { method: 'GET', path: `${P}/{planId}/version`, query: Type.Object({ version: Type.String() }), output: PlanVersion },
  updatePlan: { method: 'POST', path: `${P}/{planId}/update`, body: Strict({ revision: Revision, name: opt(Name), steps: opt(Steps) }), output: Plan },
  publishPlan: { method: 'POST', path: `${P}/{planId}/publish`, body: RevisionBody, output: Plan },
  archivePlan: { method: 'POST', path: `${P}/{planId}/archive`, body: RevisionBody, output: Plan },
  createTrigger: { method: 'POST', path: T, body: TriggerBody, output: Trigger },
  listTriggers: { method: 'GET', path: T, query: Type.Object({ planId: opt(Type.String()), status: opt(Type.String()), ...PageQuery }), output: TriggerPage },
  validateTrigger: { method: 'POST', path: `${T}/validate`, body: TriggerBody, output: Validation },
  showTrigger: { method: 'GET', path: `${T}/{triggerId}`, output: Trigger },
  updateTrigger: { method: 'POST', path: `${T}/{triggerId}/update`, body: Strict({ revision: Revision, name: opt(Name), target: opt(Target) }), output: Trigger },
  enableTrigger: { method: 'POST', path: `${T}/{triggerId}/enable`, body: RevisionBody, output: Trigger },
  disableTrigger: { method: 'POST', path: `${T}/{triggerId}/disable`, body: RevisionBody, output: Trigger },
  archiveTrigger: { method: 'POST', path: `${T}/{triggerId}/archive`, body: RevisionBody, output: Trigger },
  startRun: { method: 'POST', path: R, body: Strict({ planId: opt(Type.String()), triggerId: opt(Type.String()), target: opt(Target) }), output: RunDetail },
  listRuns: { method: 'GET', path: R, query: Type.Object({ planId: opt(Type.String()), status: opt(Type.String()), ...PageQuery }), output: RunPage },
  showRun: { method: 'GET', path: `${R}/{runId}`, output: RunDetail },
  runLogs: { method: 'GET', path: `${R}/{runId}/logs`, query: Type.Object(PageQuery), output: LogPage },
  listSteps: { method: 'GET', path: `${R}/{runId}/steps`, query: Type.Object(PageQuery), output: StepPage },
  cancelRun: { method: 'POST', path: `${R}/{runId}/cancel`, body: Strict({}), output: RunDetail },
  getStep: { method: 'GET', path: `${S}/{stepId}`, output: Step },
  completeStep: { method: 'POST', path: `${S}/{stepId}/complete`, body: NoteBody, output: Step },
  failStep: { method: 'POST', path: `${S}/{stepId}/fail`, body: NoteBody, output: Step },
  pauseStep: { method: 'POST', path: `${S}/{stepId}/pause`, body: NoteBody, output: Step },
  parkStep: { method: 'POST', path: `${S}/{stepId}/park`, body: NoteBody, output: Step },
});
