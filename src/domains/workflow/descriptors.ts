// Owns the `workflow` domain descriptors: one action per resource (plan, trigger, run, step), each an `operation` union
// from the spec's closed matrix with per-operation risk and result policy (no handlers).
import { Type } from '@sinclair/typebox';
import { defineAction } from '../../catalog/descriptors/define.js';
import { strongest } from '../../catalog/operations.js';
import { Authors, Cursor, HasMore, Id, Limit, NextCursor, Strict, mutationSelectors } from '../../catalog/schemas.js';
import { MATRIX, Note, operationPolicies, PLAN_STATUSES, Revision, RUN_STATUSES, Steps, Target, TRIGGER_STATUSES, type Resource } from './contract.js';
import { LogItem, PlanListItem, PlanView, RunListItem, RunView, StepItem, StepView, TriggerListItem, TriggerView, VersionView } from './project.js';

const opt = Type.Optional;
const lit = (xs: readonly string[]) => Type.Union(xs.map((x) => Type.Literal(x)));
const Operation = (r: Resource) => lit(Object.keys(MATRIX[r]));
const policy = (r: Resource) => {
  const operations = operationPolicies(r);
  return { operations, ...strongest(operations) };
};
const page = { limit: Limit, cursor: Cursor };
const more = { hasMore: opt(HasMore), nextCursor: NextCursor };
const Valid = { valid: opt(Type.Boolean()), problem: opt(Type.String()) };
const PlanId = Id('Plan id.');
const RunId = Id('Run id.');

export const workflowPlan = defineAction({
  domain: 'workflow',
  action: 'plan',
  summary: 'Versioned plans of steps. name+steps: create/validate; planId: show/version/update/publish/archive.',
  input: Strict({
    operation: Operation('plan'),
    planId: opt(PlanId),
    version: opt(Type.Integer({ minimum: 1 })),
    name: opt(Type.String({ minLength: 1, maxLength: 120 })),
    steps: opt(Steps),
    revision: opt(Revision),
    filters: opt(Strict({ status: opt(lit(PLAN_STATUSES)) })),
    ...page,
    ...mutationSelectors,
  }),
  output: Strict({ plan: opt(PlanView), plans: opt(Type.Array(PlanListItem)), version: opt(VersionView), ...Valid, ...more }),
  example: { operation: 'list' },
  ...policy('plan'),
});

export const workflowTrigger = defineAction({
  domain: 'workflow',
  action: 'trigger',
  summary: 'Manual triggers: start runs of a plan in a target. create/validate planId+name+target; others triggerId.',
  input: Strict({
    operation: Operation('trigger'),
    triggerId: opt(Id('Trigger id.')),
    planId: opt(PlanId),
    name: opt(Type.String({ minLength: 1, maxLength: 120 })),
    target: opt(Target),
    revision: opt(Revision),
    filters: opt(Strict({ planId: opt(PlanId), status: opt(lit(TRIGGER_STATUSES)) })),
    ...page,
    ...mutationSelectors,
  }),
  output: Strict({ trigger: opt(TriggerView), triggers: opt(Type.Array(TriggerListItem)), ...Valid, ...more }),
  example: { operation: 'list' },
  ...policy('trigger'),
});

export const workflowRun = defineAction({
  domain: 'workflow',
  action: 'run',
  summary: 'Runs of a published plan. start {planId,target} or {triggerId}; show (with steps)/logs/cancel take runId.',
  input: Strict({
    operation: Operation('run'),
    runId: opt(RunId),
    planId: opt(PlanId),
    triggerId: opt(Id('Trigger id.')),
    target: opt(Target),
    filters: opt(Strict({ planId: opt(PlanId), status: opt(lit(RUN_STATUSES)) })),
    ...page,
    ...mutationSelectors,
  }),
  output: Strict({ run: opt(RunView), runs: opt(Type.Array(RunListItem)), logs: opt(Type.Array(LogItem)), authors: opt(Authors), ...more }),
  example: { operation: 'list' },
  ...policy('run'),
});

export const workflowStep = defineAction({
  domain: 'workflow',
  action: 'step',
  summary: "A run's steps. list {runId}; get and your outcome complete/fail/pause/park {stepId, note?}.",
  input: Strict({ operation: Operation('step'), stepId: opt(Id('Step id.')), runId: opt(RunId), note: opt(Note), ...page, ...mutationSelectors }),
  output: Strict({ step: opt(StepView), steps: opt(Type.Array(StepItem)), ...more }),
  example: { operation: 'get', stepId: 'wfs42104' },
  ...policy('step'),
});

export const WORKFLOW_DESCRIPTORS = [workflowPlan, workflowTrigger, workflowRun, workflowStep] as const;
