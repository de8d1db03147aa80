// Owns `team remove-member`: removes a member (creator or owner); `removed` says whether they were in the team.
import { callServer } from '../../../wire/exec/idempotency.js';
import { teamRemoveMember } from '../descriptors.js';
import { bind } from './bind.js';

export const removeMember = bind(teamRemoveMember, async (input, ctx) => {
  const r = await callServer(ctx, (o) => ctx.api.removeMember({ teamId: input.teamId, memberId: input.memberId }, o));
  return { data: { teamId: r.teamId, memberId: r.memberId, removed: r.removed }, mutation: { selectors: { teamId: r.teamId } } };
});
