// Owns `task comment`: adds a comment to a task.
import { taskComment } from '../../catalog/descriptors/task.js';
import { callServer } from '../idempotency.js';
import { projectComment } from '../project.js';
import { bind } from '../types.js';

export const comment = bind(taskComment, async (input, ctx) => {
  const c = await callServer(ctx, (o) => ctx.api.commentTask({ taskId: input.taskId, body: input.body }, o));
  return { data: { comment: projectComment(c) }, mutation: { selectors: { taskId: c.taskId } } };
});
