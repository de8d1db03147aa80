// Owns `approval list`: one keyset page (createdAt DESC, id DESC); filters are explicit and bound into the cursor.
import { pageFields } from '../../../wire/exec/action.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { approvalList } from '../descriptors.js';
import { projectApprovalPage } from '../project.js';
import { bind } from './bind.js';

export const list = bind(approvalList, async (input, ctx) => {
  const req: Parameters<typeof ctx.api.list>[0] = {};
  if (input.limit !== undefined) req.limit = input.limit;
  if (input.cursor !== undefined) req.cursor = input.cursor;
  if (input.filters?.status !== undefined) req.status = input.filters.status;
  if (input.filters?.requesterId !== undefined) req.requesterId = input.filters.requesterId;
  const page = await callServer(ctx, (o) => ctx.api.list(req, o));
  return { data: { ...projectApprovalPage(page), ...pageFields(page) } };
});
