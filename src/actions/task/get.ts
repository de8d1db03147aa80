// Owns `task get`: reads one task by its explicit id.
import { taskGet } from '../../catalog/descriptors/task.js';
import { callServer } from '../idempotency.js';
import { projectTask } from '../project.js';
import { bind } from '../types.js';

export const get = bind(taskGet, async (input, ctx) => {
  const t = await callServer(ctx, (o) => ctx.api.getTask(input.taskId, o));
  return { data: { task: projectTask(t) } };
});
