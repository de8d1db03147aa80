// Owns `task assign`: sets or clears a task's assignee.
import { taskAssign } from '../descriptors.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { projectTask } from '../project.js';
import { bind } from './bind.js';

export const assign = bind(taskAssign, async (input, ctx) => {
  const t = await callServer(ctx, (o) => ctx.api.assign({ taskId: input.taskId, assigneeId: input.assigneeId }, o));
  return { data: { task: projectTask(t) }, mutation: { selectors: { taskId: t.id }, revision: t.revision } };
});
