// Owns `workspace members`: one keyset page (name ASC, memberId ASC); filters are explicit and bound into the cursor.
import { pageFields } from '../../../wire/exec/action.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { workspaceMembers } from '../descriptors.js';
import { projectMember } from '../project.js';
import { bind } from './bind.js';

export const members = bind(workspaceMembers, async (input, ctx) => {
  const req: Parameters<typeof ctx.api.members>[0] = {};
  if (input.limit !== undefined) req.limit = input.limit;
  if (input.cursor !== undefined) req.cursor = input.cursor;
  if (input.filters?.kind !== undefined) req.kind = input.filters.kind;
  if (input.filters?.query !== undefined) req.query = input.filters.query;
  const page = await callServer(ctx, (o) => ctx.api.members(req, o));
  return { data: { members: page.members.map(projectMember), ...pageFields(page) } };
});
