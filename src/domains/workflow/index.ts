// Owns the `workflow` domain module: its declared actions, server calls (client and routes derive from them), service,
// schema steps, and the loop that moves approval steps with their approval's decision.
import { clientOf } from '../../server-client/derive.js';
import { bindRoutes } from '../../server/http/route.js';
import { declaredActions } from '../../wire/exec/declare.js';
import { defineDomain } from '../module.js';
import { WORKFLOW_ACTIONS } from './actions.js';
import { WORKFLOW } from './contract.js';
import { MIGRATIONS } from './migrations.js';
import { Workflows } from './service.js';
import { ApprovalSync } from './sync.js';

/** Each call goes to the plans, triggers or runs part of the service (whose methods keep their own shapes). */
const ROUTES = bindRoutes<typeof WORKFLOW, Workflows>(WORKFLOW, {
  createPlan: (s, a, i) => s.plans.create(a, i),
  listPlans: (s, a, i) => s.plans.list(a, i),
  validatePlan: (s, a, i) => s.plans.validate(a, i),
  showPlan: (s, a, i) => s.plans.show(a, i.planId),
  planVersion: (s, a, i) => s.plans.version(a, i.planId, i.version),
  updatePlan: (s, a, { planId, ...i }) => s.plans.update(a, planId, i),
  publishPlan: (s, a, { planId, ...i }) => s.plans.publish(a, planId, i),
  archivePlan: (s, a, { planId, ...i }) => s.plans.archive(a, planId, i),
  createTrigger: (s, a, i) => s.triggers.create(a, i),
  listTriggers: (s, a, i) => s.triggers.list(a, i),
  validateTrigger: (s, a, i) => s.triggers.validate(a, i),
  showTrigger: (s, a, i) => s.triggers.show(a, i.triggerId),
  updateTrigger: (s, a, { triggerId, ...i }) => s.triggers.update(a, triggerId, i),
  enableTrigger: (s, a, i) => s.triggers.setStatus(a, i.triggerId, 'enabled', i.revision),
  disableTrigger: (s, a, i) => s.triggers.setStatus(a, i.triggerId, 'disabled', i.revision),
  archiveTrigger: (s, a, i) => s.triggers.setStatus(a, i.triggerId, 'archived', i.revision),
  startRun: (s, a, i) => s.runs.start(a, i),
  listRuns: (s, a, i) => s.runs.list(a, i),
  showRun: (s, a, i) => s.runs.show(a, i.runId),
  runLogs: (s, a, { runId, ...i }) => s.runs.logs(a, runId, i),
  listSteps: (s, a, { runId, ...i }) => s.runs.steps(a, runId, i),
  cancelRun: (s, a, i) => s.runs.cancel(a, i.runId),
  getStep: (s, a, i) => s.runs.getStep(a, i.stepId),
  completeStep: (s, a, i) => s.runs.move(a, i.stepId, 'complete', i.note),
  failStep: (s, a, i) => s.runs.move(a, i.stepId, 'fail', i.note),
  pauseStep: (s, a, i) => s.runs.move(a, i.stepId, 'pause', i.note),
  parkStep: (s, a, i) => s.runs.move(a, i.stepId, 'park', i.note),
});

export const workflowDomain = defineDomain({
  name: 'workflow',
  key: 'workflows',
  summary: 'Plans of steps run by agents and approvals.',
  readBack: { planId: { action: 'plan', operation: 'show' }, triggerId: { action: 'trigger', operation: 'show' }, runId: { action: 'run', operation: 'show' }, stepId: { action: 'step', operation: 'get' } },
  ...declaredActions(WORKFLOW_ACTIONS),
  client: (send) => clientOf(send, WORKFLOW),
  service: (deps) => new Workflows(deps),
  routes: ROUTES,
  migrations: MIGRATIONS,
  background: (deps) => new ApprovalSync(deps, new Workflows(deps).runs),
});
