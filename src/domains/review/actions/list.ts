// Owns `review list`: one keyset page (updatedAt DESC, id DESC) of the reviews of an explicit thread target.
import { reviewList } from '../descriptors.js';
import type { ReviewStatus } from '../contract.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { pageFields } from '../../../wire/exec/action.js';
import { projectReviewPage } from '../project.js';
import { bind } from './bind.js';

export const list = bind(reviewList, async (input, ctx) => {
  const req: { target: string; status?: ReviewStatus; limit?: number; cursor?: string } = { target: input.filters.target };
  if (input.filters.status !== undefined) req.status = input.filters.status;
  if (input.limit !== undefined) req.limit = input.limit;
  if (input.cursor !== undefined) req.cursor = input.cursor;
  const page = await callServer(ctx, (o) => ctx.api.list(req, o));
  return { data: { ...projectReviewPage(page), ...pageFields(page) } };
});
