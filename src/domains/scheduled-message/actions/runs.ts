// Owns `scheduled-message runs`: one keyset page of a schedule's runs, COALESCE(attemptedAt, createdAt) DESC, id DESC.
import { pageFields } from '../../../wire/exec/action.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { scheduleRuns } from '../descriptors.js';
import { projectRun } from '../project.js';
import { bind } from './bind.js';

export const runs = bind(scheduleRuns, async (input, ctx) => {
  const page = await callServer(ctx, (o) => ctx.api.runs({ scheduleId: input.scheduleId, ...(input.limit !== undefined ? { limit: input.limit } : {}), ...(input.cursor !== undefined ? { cursor: input.cursor } : {}) }, o));
  return { data: { runs: page.runs.map(projectRun), ...pageFields(page) } };
});
