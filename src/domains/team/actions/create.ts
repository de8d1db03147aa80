// Owns `team create`: creates a team as the authorized agent (handle unique ignoring case).
import { callServer } from '../../../wire/exec/idempotency.js';
import { teamCreate } from '../descriptors.js';
import { projectTeam } from '../project.js';
import { bind } from './bind.js';

export const create = bind(teamCreate, async (input, ctx) => {
  const t = await callServer(ctx, (o) => ctx.api.create({ handle: input.handle, displayName: input.displayName, ...(input.description !== undefined ? { description: input.description } : {}) }, o));
  return { data: { team: projectTeam(t) }, mutation: { selectors: { teamId: t.id }, revision: t.revision } };
});
