// Owns `task create`: creates a task as the authorized agent.
import { taskCreate } from '../descriptors.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { projectTask } from '../project.js';
import { bind } from './bind.js';

export const create = bind(taskCreate, async (input, ctx) => {
  const req: { title: string; description?: string; assigneeId?: string; projectId?: string } = { title: input.title };
  if (input.description !== undefined) req.description = input.description;
  if (input.assigneeId !== undefined) req.assigneeId = input.assigneeId;
  if (input.projectId !== undefined) req.projectId = input.projectId;
  const t = await callServer(ctx, (o) => ctx.api.create(req, o));
  return { data: { task: projectTask(t) }, mutation: { selectors: { taskId: t.id }, revision: t.revision } };
});
