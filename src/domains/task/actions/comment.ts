// Owns `task comment`: adds a comment to a task.
import { taskComment } from '../descriptors.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { projectComment } from '../project.js';
import { bind } from './bind.js';

export const comment = bind(taskComment, async (input, ctx) => {
  const c = await callServer(ctx, (o) => ctx.api.comment({ taskId: input.taskId, body: input.body }, o));
  return { data: { comment: projectComment(c) }, mutation: { selectors: { taskId: c.taskId } } };
});
