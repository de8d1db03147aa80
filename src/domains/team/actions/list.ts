// Owns `team list`: one keyset page in displayName ASC, handle ASC, teamId ASC.
import { pageFields } from '../../../wire/exec/action.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { teamList } from '../descriptors.js';
import { projectTeamListItem } from '../project.js';
import { bind } from './bind.js';

export const list = bind(teamList, async (input, ctx) => {
  const page = await callServer(ctx, (o) => ctx.api.list({ ...(input.limit !== undefined ? { limit: input.limit } : {}), ...(input.cursor !== undefined ? { cursor: input.cursor } : {}) }, o));
  return { data: { teams: page.teams.map(projectTeamListItem), ...pageFields(page) } };
});
