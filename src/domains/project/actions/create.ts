// Owns `project create`: creates a project as the authorized agent.
import { callServer } from '../../../wire/exec/idempotency.js';
import { projectCreate } from '../descriptors.js';
import { projectProject } from '../project.js';
import { bind } from './bind.js';

export const create = bind(projectCreate, async (input, ctx) => {
  const p = await callServer(ctx, (o) => ctx.api.create({ name: input.name, ...(input.description !== undefined ? { description: input.description } : {}) }, o));
  return { data: { project: projectProject(p) }, mutation: { selectors: { projectId: p.id }, revision: p.revision } };
});
