// Owns `project archive`: archives a project (creator or owner); optionally revision-checked.
import { callServer } from '../../../wire/exec/idempotency.js';
import { projectArchive } from '../descriptors.js';
import { projectProject } from '../project.js';
import { bind } from './bind.js';

export const archive = bind(projectArchive, async (input, ctx) => {
  const p = await callServer(ctx, (o) => ctx.api.archive({ projectId: input.projectId, ...(input.expectedRevision !== undefined ? { expectedRevision: input.expectedRevision } : {}) }, o));
  return { data: { project: projectProject(p) }, mutation: { selectors: { projectId: p.id }, revision: p.revision } };
});
