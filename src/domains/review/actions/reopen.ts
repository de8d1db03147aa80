// Owns `review reopen`: reopens a resolved review.
import { reviewReopen } from '../descriptors.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { projectReview } from '../project.js';
import { bind } from './bind.js';

export const reopen = bind(reviewReopen, async (input, ctx) => {
  const r = await callServer(ctx, (o) => ctx.api.reopen(input.reviewId, o));
  return { data: { review: projectReview(r) }, mutation: { selectors: { reviewId: r.id }, revision: r.revision } };
});
