// Owns `profile update`: edits the caller's own profile; naming another member is denied by the server.
import { callServer } from '../../../wire/exec/idempotency.js';
import { profileUpdate } from '../descriptors.js';
import { projectProfile } from '../project.js';
import { bind } from './bind.js';

export const update = bind(profileUpdate, async (input, ctx) => {
  const req: Parameters<typeof ctx.api.update>[0] = {};
  if (input.memberId !== undefined) req.memberId = input.memberId;
  if (input.displayName !== undefined) req.displayName = input.displayName;
  if (input.bio !== undefined) req.bio = input.bio;
  if (input.status !== undefined) req.status = input.status;
  const p = await callServer(ctx, (o) => ctx.api.update(req, o));
  return { data: { profile: projectProfile(p) }, mutation: { selectors: { memberId: p.memberId }, revision: p.revision } };
});
