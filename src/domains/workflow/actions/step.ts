// Owns `workflow step`: list/get (reads) and the assignee's outcome complete/fail/pause/park (side effects).
import { pageFields } from '../../../wire/exec/action.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { MATRIX, type OperationOf } from '../contract.js';
import { workflowStep } from '../descriptors.js';
import { projectStep, projectStepItem } from '../project.js';
import { bind } from './bind.js';
import { checkFields, type FieldRule } from './fields.js';

const OUTCOME = ['stepId', 'note?'];
const RULE: FieldRule = { list: ['runId', 'limit?', 'cursor?'], get: ['stepId'], complete: OUTCOME, fail: OUTCOME, pause: OUTCOME, park: OUTCOME };

export const step = bind(workflowStep, async (input, ctx) => {
  const op = input.operation as OperationOf<'step'>;
  checkFields(RULE, input, MATRIX.step[op] === 'mutation');
  const api = ctx.api;
  switch (op) {
    case 'list': {
      const p = await callServer(ctx, (o) => api.listSteps(input.runId!, { ...(input.limit ? { limit: input.limit } : {}), ...(input.cursor ? { cursor: input.cursor } : {}) }, o));
      return { data: { steps: p.steps.map(projectStepItem), ...pageFields(p) } };
    }
    case 'get':
      return { data: { step: projectStep(await callServer(ctx, (o) => api.getStep(input.stepId!, o))) } };
    default: {
      const s = await callServer(ctx, (o) => api.moveStep(input.stepId!, op, input.note, o));
      return { data: { step: projectStep(s) }, mutation: { selectors: { stepId: s.id }, revision: s.revision } };
    }
  }
});
