// Owns `task update`: a revision-checked edit of title/description (a stale expectedRevision is a conflict).
import { taskUpdate } from '../../catalog/descriptors/task.js';
import { callServer } from '../idempotency.js';
import { projectTask } from '../project.js';
import { bind } from '../types.js';

export const update = bind(taskUpdate, async (input, ctx) => {
  const req: { taskId: string; expectedRevision: number; title?: string; description?: string } = { taskId: input.taskId, expectedRevision: input.expectedRevision };
  if (input.title !== undefined) req.title = input.title;
  if (input.description !== undefined) req.description = input.description;
  const t = await callServer(ctx, (o) => ctx.api.updateTask(req, o));
  return { data: { task: projectTask(t) }, mutation: { selectors: { taskId: t.id }, revision: t.revision } };
});
