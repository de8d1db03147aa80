// Owns `review reopen`: reopens a resolved review.
import { reviewReopen } from '../../catalog/descriptors/review.js';
import { callServer } from '../idempotency.js';
import { projectReview } from '../project.js';
import { bind } from '../types.js';

export const reopen = bind(reviewReopen, async (input, ctx) => {
  const r = await callServer(ctx, (o) => ctx.api.reopenReview(input.reviewId, o));
  return { data: { review: projectReview(r) }, mutation: { selectors: { reviewId: r.id }, revision: r.revision } };
});
