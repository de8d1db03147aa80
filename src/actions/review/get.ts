// Owns `review get`: reads one review by its explicit id.
import { reviewGet } from '../../catalog/descriptors/review.js';
import { callServer } from '../idempotency.js';
import { projectReview } from '../project.js';
import { bind } from '../types.js';

export const get = bind(reviewGet, async (input, ctx) => {
  const r = await callServer(ctx, (o) => ctx.api.getReview(input.reviewId, o));
  return { data: { review: projectReview(r) } };
});
