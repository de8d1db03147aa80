// Owns `task get`: reads one task by its explicit id.
import { taskGet } from '../descriptors.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { projectTask } from '../project.js';
import { bind } from './bind.js';

export const get = bind(taskGet, async (input, ctx) => {
  const t = await callServer(ctx, (o) => ctx.api.get(input.taskId, o));
  return { data: { task: projectTask(t) } };
});
