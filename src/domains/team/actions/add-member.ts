// Owns `team add-member`: adds a workspace member (creator or owner); adding a present member changes nothing.
import { callServer } from '../../../wire/exec/idempotency.js';
import { teamAddMember } from '../descriptors.js';
import { projectMember } from '../project.js';
import { bind } from './bind.js';

export const addMember = bind(teamAddMember, async (input, ctx) => {
  const r = await callServer(ctx, (o) => ctx.api.addMember({ teamId: input.teamId, memberId: input.memberId }, o));
  return { data: { teamId: r.teamId, member: projectMember(r.member) }, mutation: { selectors: { teamId: r.teamId } } };
});
