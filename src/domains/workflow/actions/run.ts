// Owns `workflow run`: list/show/logs (reads) and start/cancel (side effects) on runs of published plans.
import { pageFields } from '../../../wire/exec/action.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { MATRIX, type OperationOf } from '../contract.js';
import { workflowRun } from '../descriptors.js';
import { projectLogPage, projectRun, projectRunListItem } from '../project.js';
import { bind } from './bind.js';
import { checkFields, type FieldRule } from './fields.js';

const RULE: FieldRule = {
  list: ['filters?', 'limit?', 'cursor?'],
  show: ['runId'],
  logs: ['runId', 'limit?', 'cursor?'],
  start: ['planId?', 'triggerId?', 'target?'],
  cancel: ['runId'],
};

export const run = bind(workflowRun, async (input, ctx) => {
  const op = input.operation as OperationOf<'run'>;
  checkFields(RULE, input, MATRIX.run[op] === 'mutation');
  const api = ctx.api;
  const page = { ...(input.limit ? { limit: input.limit } : {}), ...(input.cursor ? { cursor: input.cursor } : {}) };
  switch (op) {
    case 'list': {
      const f = input.filters ?? {};
      const p = await callServer(ctx, (o) => api.listRuns({ ...(f.planId ? { planId: f.planId } : {}), ...(f.status ? { status: f.status } : {}), ...page }, o));
      return { data: { runs: p.runs.map(projectRunListItem), ...pageFields(p) } };
    }
    case 'show':
      return { data: { run: projectRun(await callServer(ctx, (o) => api.showRun(input.runId!, o))) } };
    case 'logs': {
      const p = await callServer(ctx, (o) => api.runLogs(input.runId!, page, o));
      return { data: { ...projectLogPage(p.logs), ...pageFields(p) } };
    }
    default: {
      const r = await callServer(ctx, (o) =>
        op === 'start'
          ? api.startRun({ ...(input.planId ? { planId: input.planId } : {}), ...(input.triggerId ? { triggerId: input.triggerId } : {}), ...(input.target ? { target: input.target } : {}) }, o)
          : api.cancelRun(input.runId!, o),
      );
      return { data: { run: projectRun(r) }, mutation: { selectors: { runId: r.id }, revision: r.revision } };
    }
  }
});
