// Owns `workflow trigger`: list/show/validate (reads) and create/update/enable/disable/archive (side effects) on triggers.
import { pageFields } from '../../../wire/exec/action.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { MATRIX, type OperationOf } from '../contract.js';
import { workflowTrigger } from '../descriptors.js';
import { projectTrigger, projectTriggerListItem } from '../project.js';
import { bind } from './bind.js';
import { checkFields, type FieldRule } from './fields.js';

const RULE: FieldRule = {
  list: ['filters?', 'limit?', 'cursor?'],
  show: ['triggerId'],
  validate: ['planId', 'name', 'target'],
  create: ['planId', 'name', 'target'],
  update: ['triggerId', 'revision', 'name?', 'target?'],
  enable: ['triggerId', 'revision?'],
  disable: ['triggerId', 'revision?'],
  archive: ['triggerId', 'revision?'],
};

export const trigger = bind(workflowTrigger, async (input, ctx) => {
  const op = input.operation as OperationOf<'trigger'>;
  checkFields(RULE, input, MATRIX.trigger[op] === 'mutation');
  const api = ctx.api;
  switch (op) {
    case 'list': {
      const f = input.filters ?? {};
      const p = await callServer(ctx, (o) => api.listTriggers({ ...(f.planId ? { planId: f.planId } : {}), ...(f.status ? { status: f.status } : {}), ...(input.limit ? { limit: input.limit } : {}), ...(input.cursor ? { cursor: input.cursor } : {}) }, o));
      return { data: { triggers: p.triggers.map(projectTriggerListItem), ...pageFields(p) } };
    }
    case 'show':
      return { data: { trigger: projectTrigger(await callServer(ctx, (o) => api.showTrigger(input.triggerId!, o))) } };
    case 'validate': {
      const v = await callServer(ctx, (o) => api.validateTrigger({ planId: input.planId!, name: input.name!, target: input.target! }, o));
      return { data: v.valid ? { valid: true } : { valid: false, problem: String(v.problem ?? 'invalid') } };
    }
    default: {
      const t = await callServer(ctx, (o) =>
        op === 'create'
          ? api.createTrigger({ planId: input.planId!, name: input.name!, target: input.target! }, o)
          : op === 'update'
            ? api.updateTrigger(input.triggerId!, { revision: input.revision!, ...(input.name !== undefined ? { name: input.name } : {}), ...(input.target !== undefined ? { target: input.target } : {}) }, o)
            : api.triggerOp(input.triggerId!, op, input.revision, o),
      );
      return { data: { trigger: projectTrigger(t) }, mutation: { selectors: { triggerId: t.id }, revision: t.revision } };
    }
  }
});
