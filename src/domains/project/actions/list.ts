// Owns `project list`: one keyset page (updatedAt DESC, id ASC); filters are explicit and bound into the cursor.
import { pageFields } from '../../../wire/exec/action.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { projectList } from '../descriptors.js';
import { projectProjectListItem } from '../project.js';
import { bind } from './bind.js';

export const list = bind(projectList, async (input, ctx) => {
  const req: Parameters<typeof ctx.api.list>[0] = {};
  if (input.limit !== undefined) req.limit = input.limit;
  if (input.cursor !== undefined) req.cursor = input.cursor;
  if (input.filters?.status !== undefined) req.status = input.filters.status;
  if (input.filters?.query !== undefined) req.query = input.filters.query;
  const page = await callServer(ctx, (o) => ctx.api.list(req, o));
  return { data: { projects: page.projects.map(projectProjectListItem), ...pageFields(page) } };
});
