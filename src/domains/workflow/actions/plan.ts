// Owns `workflow plan`: list/show/version/validate (reads) and create/update/archive/publish (side effects) on plans.
import { pageFields } from '../../../wire/exec/action.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { MATRIX, type OperationOf } from '../contract.js';
import { workflowPlan } from '../descriptors.js';
import { projectPlan, projectPlanListItem, projectVersion } from '../project.js';
import { bind } from './bind.js';
import { checkFields, type FieldRule } from './fields.js';

const RULE: FieldRule = {
  list: ['filters?', 'limit?', 'cursor?'],
  show: ['planId'],
  version: ['planId', 'version'],
  validate: ['name?', 'steps'],
  create: ['name', 'steps'],
  update: ['planId', 'revision', 'name?', 'steps?'],
  archive: ['planId', 'revision?'],
  publish: ['planId', 'revision?'],
};

export const plan = bind(workflowPlan, async (input, ctx) => {
  const op = input.operation as OperationOf<'plan'>;
  checkFields(RULE, input, MATRIX.plan[op] === 'mutation');
  const api = ctx.api;
  switch (op) {
    case 'list': {
      const p = await callServer(ctx, (o) => api.listPlans({ ...(input.filters?.status ? { status: input.filters.status } : {}), ...(input.limit ? { limit: input.limit } : {}), ...(input.cursor ? { cursor: input.cursor } : {}) }, o));
      return { data: { plans: p.plans.map(projectPlanListItem), ...pageFields(p) } };
    }
    case 'show': {
      const s = await callServer(ctx, (o) => api.showPlan(input.planId!, o));
      return { data: { plan: projectPlan(s.plan), version: projectVersion(s.version) } };
    }
    case 'version':
      return { data: { version: projectVersion(await callServer(ctx, (o) => api.planVersion(input.planId!, input.version!, o))) } };
    case 'validate': {
      const v = await callServer(ctx, (o) => api.validatePlan({ ...(input.name !== undefined ? { name: input.name } : {}), steps: input.steps! }, o));
      return { data: v.valid ? { valid: true } : { valid: false, problem: String(v.problem ?? 'invalid') } };
    }
    default: {
      const p = await callServer(ctx, (o) =>
        op === 'create'
          ? api.createPlan({ name: input.name!, steps: input.steps! }, o)
          : op === 'update'
            ? api.updatePlan(input.planId!, { revision: input.revision!, ...(input.name !== undefined ? { name: input.name } : {}), ...(input.steps !== undefined ? { steps: input.steps } : {}) }, o)
            : api.planOp(input.planId!, op, input.revision, o),
      );
      return { data: { plan: projectPlan(p) }, mutation: { selectors: { planId: p.id }, revision: p.revision } };
    }
  }
});
