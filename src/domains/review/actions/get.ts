// Owns `review get`: reads one review by its explicit id.
import { reviewGet } from '../descriptors.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { projectReview } from '../project.js';
import { bind } from './bind.js';

export const get = bind(reviewGet, async (input, ctx) => {
  const r = await callServer(ctx, (o) => ctx.api.get(input.reviewId, o));
  return { data: { review: projectReview(r) } };
});
