// Owns `project unarchive`: makes an archived project active again (creator or owner); optionally revision-checked.
import { callServer } from '../../../wire/exec/idempotency.js';
import { projectUnarchive } from '../descriptors.js';
import { projectProject } from '../project.js';
import { bind } from './bind.js';

export const unarchive = bind(projectUnarchive, async (input, ctx) => {
  const p = await callServer(ctx, (o) => ctx.api.unarchive({ projectId: input.projectId, ...(input.expectedRevision !== undefined ? { expectedRevision: input.expectedRevision } : {}) }, o));
  return { data: { project: projectProject(p) }, mutation: { selectors: { projectId: p.id }, revision: p.revision } };
});
