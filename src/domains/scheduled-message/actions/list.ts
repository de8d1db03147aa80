// Owns `scheduled-message list`: one keyset page of the caller's schedules (createdAt DESC, id DESC); the filter is bound into the cursor.
import { pageFields } from '../../../wire/exec/action.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { scheduleList } from '../descriptors.js';
import { projectScheduleList } from '../project.js';
import { bind } from './bind.js';

export const list = bind(scheduleList, async (input, ctx) => {
  const req: Parameters<typeof ctx.api.list>[0] = {};
  if (input.limit !== undefined) req.limit = input.limit;
  if (input.cursor !== undefined) req.cursor = input.cursor;
  if (input.filters?.enabled !== undefined) req.enabled = input.filters.enabled;
  const page = await callServer(ctx, (o) => ctx.api.list(req, o));
  return { data: { schedules: projectScheduleList(page.schedules), ...pageFields(page) } };
});
