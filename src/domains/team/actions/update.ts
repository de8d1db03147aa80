// Owns `team update`: a revision-checked edit by the creator or the owner.
import { callServer } from '../../../wire/exec/idempotency.js';
import { teamUpdate } from '../descriptors.js';
import { projectTeam } from '../project.js';
import { bind } from './bind.js';

export const update = bind(teamUpdate, async (input, ctx) => {
  const req: Parameters<typeof ctx.api.update>[0] = { teamId: input.teamId, expectedRevision: input.expectedRevision };
  if (input.handle !== undefined) req.handle = input.handle;
  if (input.displayName !== undefined) req.displayName = input.displayName;
  if (input.description !== undefined) req.description = input.description;
  const t = await callServer(ctx, (o) => ctx.api.update(req, o));
  return { data: { team: projectTeam(t) }, mutation: { selectors: { teamId: t.id }, revision: t.revision } };
});
