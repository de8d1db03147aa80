// Owns `team members`: one keyset page of a team's members, by member id.
import { pageFields } from '../../../wire/exec/action.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { teamMembers } from '../descriptors.js';
import { projectMember } from '../project.js';
import { bind } from './bind.js';

export const members = bind(teamMembers, async (input, ctx) => {
  const req: Parameters<typeof ctx.api.members>[0] = { teamId: input.teamId };
  if (input.limit !== undefined) req.limit = input.limit;
  if (input.cursor !== undefined) req.cursor = input.cursor;
  const page = await callServer(ctx, (o) => ctx.api.members(req, o));
  return { data: { members: page.members.map(projectMember), ...pageFields(page) } };
});
