// Owns `task list`: one keyset page of tasks; filters are explicit, never inferred from the delivery.
import { taskList } from '../descriptors.js';
import type { TaskStatus } from '../contract.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { pageFields } from '../../../wire/exec/action.js';
import { projectTaskListItem } from '../project.js';
import { bind } from './bind.js';

export const list = bind(taskList, async (input, ctx) => {
  const req: { status?: TaskStatus; assigneeId?: string; projectId?: string; limit?: number; cursor?: string } = {};
  if (input.limit !== undefined) req.limit = input.limit;
  if (input.cursor !== undefined) req.cursor = input.cursor;
  if (input.filters?.status !== undefined) req.status = input.filters.status;
  if (input.filters?.assigneeId !== undefined) req.assigneeId = input.filters.assigneeId;
  if (input.filters?.projectId !== undefined) req.projectId = input.filters.projectId;
  const page = await callServer(ctx, (o) => ctx.api.list(req, o));
  return { data: { tasks: page.tasks.map(projectTaskListItem), ...pageFields(page) } };
});
