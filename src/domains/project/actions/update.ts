// Owns `project update`: a revision-checked edit of name/description by the creator or the owner.
import { callServer } from '../../../wire/exec/idempotency.js';
import { projectUpdate } from '../descriptors.js';
import { projectProject } from '../project.js';
import { bind } from './bind.js';

export const update = bind(projectUpdate, async (input, ctx) => {
  const req: Parameters<typeof ctx.api.update>[0] = { projectId: input.projectId, expectedRevision: input.expectedRevision };
  if (input.name !== undefined) req.name = input.name;
  if (input.description !== undefined) req.description = input.description;
  const p = await callServer(ctx, (o) => ctx.api.update(req, o));
  return { data: { project: projectProject(p) }, mutation: { selectors: { projectId: p.id }, revision: p.revision } };
});
