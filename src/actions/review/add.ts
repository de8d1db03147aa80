// Owns `review add`: adds a review to an exact task or thread target.
import { reviewAdd } from '../../catalog/descriptors/review.js';
import { callServer } from '../idempotency.js';
import { projectReview } from '../project.js';
import { bind } from '../types.js';

export const add = bind(reviewAdd, async (input, ctx) => {
  const r = await callServer(ctx, (o) => ctx.api.addReview({ target: input.target, verdict: input.verdict, body: input.body }, o));
  return { data: { review: projectReview(r) }, mutation: { selectors: { reviewId: r.id }, revision: r.revision } };
});
