// Owns the `workflow` Exec actions, one declaration each: one action per resource (plan, trigger, run, step), each an
// `operation` union from the spec's closed matrix whose operations carry their own risk, result policy and
// over-budget guidance; each operation takes exactly its fields, and is one server call.
import { Type } from '@sinclair/typebox';
import { strongest } from '../../catalog/operations.js';
import { Authors, Cursor, HasMore, Id, Limit, NextCursor, Strict, mutationSelectors } from '../../catalog/schemas.js';
import { AppError } from '../../shared/errors.js';
import { pageFields } from '../../wire/exec/action.js';
import { applied, callEndpoint, execAction, type DeclaredAction, type OverBudget } from '../../wire/exec/declare.js';
import { MATRIX, Note, operationPolicies, PLAN_STATUSES, Revision, RUN_STATUSES, Steps, Target, TRIGGER_STATUSES, WORKFLOW as W, type OperationOf, type Resource } from './contract.js';
import { LogItem, PlanListItem, PlanView, projectLogPage, projectPlan, projectPlanListItem, projectRun, projectRunListItem, projectStep, projectStepItem, projectTrigger, projectTriggerListItem, projectVersion, RunListItem, RunView, StepItem, StepView, TriggerListItem, TriggerView, VersionView } from './project.js';

const opt = Type.Optional;
const lit = (xs: readonly string[]) => Type.Union(xs.map((x) => Type.Literal(x)));
const Operation = (r: Resource) => lit(Object.keys(MATRIX[r]));
const page = { limit: Limit, cursor: Cursor };
const more = { hasMore: opt(HasMore), nextCursor: NextCursor };
const Valid = { valid: opt(Type.Boolean()), problem: opt(Type.String()) };
const PlanId = Id('Plan id.');
const RunId = Id('Run id.');
const TriggerId = Id('Trigger id.');

const PAGE_HINT = 'Request a smaller page with the same operation, filters and cursor.';
const VERSION_HINT = 'One plan version is bounded; read another version with operation version.';
const VALIDATE_HINT = 'Validate fewer or shorter steps.';

/**
 * The action's policy: each operation's risk and result policy from the matrix and its over-budget guidance (a page:
 * a smaller one; a side effect: it was applied; a narrow read: `narrow[op]`), the strongest of them at the top.
 */
function policy(r: Resource, narrow: Readonly<Record<string, string>>) {
  const next = `agentteam exec workflow ${r}`;
  const operations = Object.fromEntries(
    Object.entries(operationPolicies(r)).map(([op, p]) => [op, { ...p, ...(p.resultPolicy === 'mutation' ? applied(next) : { hint: p.resultPolicy === 'cursor' ? PAGE_HINT : narrow[op]!, next }) }]),
  );
  return { operations, ...strongest(operations), overBudget: applied(next) as OverBudget };
}

/** `{ create: ['name', 'steps'], list: ['limit?', …] }`: a trailing `?` marks an optional field. */
type FieldRule = Readonly<Record<string, readonly string[]>>;
/**
 * Each operation takes exactly its fields (required ones present, others absent), so a field meant for another
 * operation is a typed error instead of being silently ignored; the idempotency selectors go with side effects only.
 */
function checkFields<R extends Resource>(r: R, rule: FieldRule, input: { operation: string }): OperationOf<R> {
  const op = input.operation as OperationOf<R>;
  const fields = input as unknown as Record<string, unknown>;
  const spec = rule[op] ?? [];
  const mutation = (MATRIX[r] as Record<string, string>)[op] === 'mutation';
  const allowed = new Set(['operation', ...spec.map((f) => f.replace(/\?$/, '')), ...(mutation ? ['requestId', 'idempotencyKey'] : [])]);
  for (const f of spec) if (!f.endsWith('?') && fields[f] === undefined) throw new AppError('validation_failed', `operation ${op} needs ${f}`);
  for (const k of Object.keys(fields)) if (fields[k] !== undefined && !allowed.has(k)) throw new AppError('validation_failed', `operation ${op} does not take ${k}`);
  return op;
}

const PLAN_FIELDS: FieldRule = {
  list: ['filters?', 'limit?', 'cursor?'],
  show: ['planId'],
  version: ['planId', 'version'],
  validate: ['name?', 'steps'],
  create: ['name', 'steps'],
  update: ['planId', 'revision', 'name?', 'steps?'],
  archive: ['planId', 'revision?'],
  publish: ['planId', 'revision?'],
};

const plan = execAction({
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
  ...policy('plan', { show: VERSION_HINT, version: VERSION_HINT, validate: VALIDATE_HINT }),
  handle: async (i, ctx) => {
    const op = checkFields('plan', PLAN_FIELDS, i);
    switch (op) {
      case 'list': {
        const p = await callEndpoint(ctx, W.listPlans, { status: i.filters?.status, limit: i.limit, cursor: i.cursor });
        return { data: { plans: p.plans.map(projectPlanListItem), ...pageFields(p) } };
      }
      case 'show': {
        const s = await callEndpoint(ctx, W.showPlan, { planId: i.planId! });
        return { data: { plan: projectPlan(s.plan), version: projectVersion(s.version) } };
      }
      case 'version':
        return { data: { version: projectVersion(await callEndpoint(ctx, W.planVersion, { planId: i.planId!, version: String(i.version) })) } };
      case 'validate': {
        const v = await callEndpoint(ctx, W.validatePlan, { name: i.name, steps: i.steps! });
        return { data: v.valid ? { valid: true } : { valid: false, problem: String(v.problem ?? 'invalid') } };
      }
      default: {
        const p = await (op === 'create'
          ? callEndpoint(ctx, W.createPlan, { name: i.name!, steps: i.steps! })
          : op === 'update'
            ? callEndpoint(ctx, W.updatePlan, { planId: i.planId!, revision: i.revision!, name: i.name, steps: i.steps })
            : callEndpoint(ctx, op === 'publish' ? W.publishPlan : W.archivePlan, { planId: i.planId!, revision: i.revision }));
        return { data: { plan: projectPlan(p) }, mutation: { selectors: { planId: p.id }, revision: p.revision } };
      }
    }
  },
});

const TRIGGER_FIELDS: FieldRule = {
  list: ['filters?', 'limit?', 'cursor?'],
  show: ['triggerId'],
  validate: ['planId', 'name', 'target'],
  create: ['planId', 'name', 'target'],
  update: ['triggerId', 'revision', 'name?', 'target?'],
  enable: ['triggerId', 'revision?'],
  disable: ['triggerId', 'revision?'],
  archive: ['triggerId', 'revision?'],
};
const TRIGGER_STATUS = { enable: W.enableTrigger, disable: W.disableTrigger, archive: W.archiveTrigger } as const;

const trigger = execAction({
  domain: 'workflow',
  action: 'trigger',
  summary: 'Manual triggers: start runs of a plan in a target. create/validate planId+name+target; others triggerId.',
  input: Strict({
    operation: Operation('trigger'),
    triggerId: opt(TriggerId),
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
  ...policy('trigger', { show: 'Read one trigger by its id with operation show.', validate: VALIDATE_HINT }),
  handle: async (i, ctx) => {
    const op = checkFields('trigger', TRIGGER_FIELDS, i);
    switch (op) {
      case 'list': {
        const p = await callEndpoint(ctx, W.listTriggers, { planId: i.filters?.planId, status: i.filters?.status, limit: i.limit, cursor: i.cursor });
        return { data: { triggers: p.triggers.map(projectTriggerListItem), ...pageFields(p) } };
      }
      case 'show':
        return { data: { trigger: projectTrigger(await callEndpoint(ctx, W.showTrigger, { triggerId: i.triggerId! })) } };
      case 'validate': {
        const v = await callEndpoint(ctx, W.validateTrigger, { planId: i.planId!, name: i.name!, target: i.target! });
        return { data: v.valid ? { valid: true } : { valid: false, problem: String(v.problem ?? 'invalid') } };
      }
      default: {
        const t = await (op === 'create'
          ? callEndpoint(ctx, W.createTrigger, { planId: i.planId!, name: i.name!, target: i.target! })
          : op === 'update'
            ? callEndpoint(ctx, W.updateTrigger, { triggerId: i.triggerId!, revision: i.revision!, name: i.name, target: i.target })
            : callEndpoint(ctx, TRIGGER_STATUS[op], { triggerId: i.triggerId!, revision: i.revision }));
        return { data: { trigger: projectTrigger(t) }, mutation: { selectors: { triggerId: t.id }, revision: t.revision } };
      }
    }
  },
});

const RUN_FIELDS: FieldRule = {
  list: ['filters?', 'limit?', 'cursor?'],
  show: ['runId'],
  logs: ['runId', 'limit?', 'cursor?'],
  start: ['planId?', 'triggerId?', 'target?'],
  cancel: ['runId'],
};

const run = execAction({
  domain: 'workflow',
  action: 'run',
  summary: 'Runs of a published plan. start {planId,target} or {triggerId}; show (with steps)/logs/cancel take runId.',
  input: Strict({
    operation: Operation('run'),
    runId: opt(RunId),
    planId: opt(PlanId),
    triggerId: opt(TriggerId),
    target: opt(Target),
    filters: opt(Strict({ planId: opt(PlanId), status: opt(lit(RUN_STATUSES)) })),
    ...page,
    ...mutationSelectors,
  }),
  output: Strict({ run: opt(RunView), runs: opt(Type.Array(RunListItem)), logs: opt(Type.Array(LogItem)), authors: opt(Authors), ...more }),
  example: { operation: 'list' },
  ...policy('run', { show: 'Read one run by its id with operation show.' }),
  handle: async (i, ctx) => {
    const op = checkFields('run', RUN_FIELDS, i);
    switch (op) {
      case 'list': {
        const p = await callEndpoint(ctx, W.listRuns, { planId: i.filters?.planId, status: i.filters?.status, limit: i.limit, cursor: i.cursor });
        return { data: { runs: p.runs.map(projectRunListItem), ...pageFields(p) } };
      }
      case 'show':
        return { data: { run: projectRun(await callEndpoint(ctx, W.showRun, { runId: i.runId! })) } };
      case 'logs': {
        const p = await callEndpoint(ctx, W.runLogs, { runId: i.runId!, limit: i.limit, cursor: i.cursor });
        return { data: { ...projectLogPage(p.logs), ...pageFields(p) } };
      }
      default: {
        const r = await (op === 'start' ? callEndpoint(ctx, W.startRun, { planId: i.planId, triggerId: i.triggerId, target: i.target }) : callEndpoint(ctx, W.cancelRun, { runId: i.runId! }));
        return { data: { run: projectRun(r) }, mutation: { selectors: { runId: r.id }, revision: r.revision } };
      }
    }
  },
});

const OUTCOME = ['stepId', 'note?'];
const STEP_FIELDS: FieldRule = { list: ['runId', 'limit?', 'cursor?'], get: ['stepId'], complete: OUTCOME, fail: OUTCOME, pause: OUTCOME, park: OUTCOME };
const STEP_MOVE = { complete: W.completeStep, fail: W.failStep, pause: W.pauseStep, park: W.parkStep } as const;

const step = execAction({
  domain: 'workflow',
  action: 'step',
  summary: "A run's steps. list {runId}; get and your outcome complete/fail/pause/park {stepId, note?}.",
  input: Strict({ operation: Operation('step'), stepId: opt(Id('Step id.')), runId: opt(RunId), note: opt(Note), ...page, ...mutationSelectors }),
  output: Strict({ step: opt(StepView), steps: opt(Type.Array(StepItem)), ...more }),
  example: { operation: 'get', stepId: 'wfs42104' },
  ...policy('step', { get: 'Read one step by its id with operation get.' }),
  handle: async (i, ctx) => {
    const op = checkFields('step', STEP_FIELDS, i);
    switch (op) {
      case 'list': {
        const p = await callEndpoint(ctx, W.listSteps, { runId: i.runId!, limit: i.limit, cursor: i.cursor });
        return { data: { steps: p.steps.map(projectStepItem), ...pageFields(p) } };
      }
      case 'get':
        return { data: { step: projectStep(await callEndpoint(ctx, W.getStep, { stepId: i.stepId! })) } };
      default: {
        const s = await callEndpoint(ctx, STEP_MOVE[op], { stepId: i.stepId!, note: i.note });
        return { data: { step: projectStep(s) }, mutation: { selectors: { stepId: s.id }, revision: s.revision } };
      }
    }
  },
});

/** The workflow actions, one per resource of the operation matrix. */
export const WORKFLOW_ACTIONS: readonly DeclaredAction<any, any>[] = [plan, trigger, run, step];
