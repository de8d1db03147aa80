// Owns `task update`: a revision-checked edit of title/description (a stale expectedRevision is a conflict).
import { taskUpdate } from '../descriptors.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { projectTask } from '../project.js';
import { bind } from './bind.js';

export const update = bind(taskUpdate, async (input, ctx) => {
  const req: { taskId: string; expectedRevision: number; title?: string; description?: string; projectId?: string | null } = { taskId: input.taskId, expectedRevision: input.expectedRevision };
  if (input.title !== undefined) req.title = input.title;
  if (input.description !== undefined) req.description = input.description;
  if (input.projectId !== undefined) req.projectId = input.projectId;
  const t = await callServer(ctx, (o) => ctx.api.update(req, o));
  return { data: { task: projectTask(t) }, mutation: { selectors: { taskId: t.id }, revision: t.revision } };
});
