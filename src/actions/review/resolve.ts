// Owns `review resolve`: marks a review resolved.
import { reviewResolve } from '../../catalog/descriptors/review.js';
import { callServer } from '../idempotency.js';
import { projectReview } from '../project.js';
import { bind } from '../types.js';

export const resolve = bind(reviewResolve, async (input, ctx) => {
  const r = await callServer(ctx, (o) => ctx.api.resolveReview(input.reviewId, o));
  return { data: { review: projectReview(r) }, mutation: { selectors: { reviewId: r.id }, revision: r.revision } };
});
