// Owns `review resolve`: marks a review resolved.
import { reviewResolve } from '../descriptors.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { projectReview } from '../project.js';
import { bind } from './bind.js';

export const resolve = bind(reviewResolve, async (input, ctx) => {
  const r = await callServer(ctx, (o) => ctx.api.resolve(input.reviewId, o));
  return { data: { review: projectReview(r) }, mutation: { selectors: { reviewId: r.id }, revision: r.revision } };
});
