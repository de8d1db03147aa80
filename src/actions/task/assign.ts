// Owns `task assign`: sets or clears a task's assignee.
import { taskAssign } from '../../catalog/descriptors/task.js';
import { callServer } from '../idempotency.js';
import { projectTask } from '../project.js';
import { bind } from '../types.js';

export const assign = bind(taskAssign, async (input, ctx) => {
  const t = await callServer(ctx, (o) => ctx.api.assignTask({ taskId: input.taskId, assigneeId: input.assigneeId }, o));
  return { data: { task: projectTask(t) }, mutation: { selectors: { taskId: t.id }, revision: t.revision } };
});
