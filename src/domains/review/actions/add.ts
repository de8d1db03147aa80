// Owns `review add`: adds a review to an exact task or thread target.
import { reviewAdd } from '../descriptors.js';
import { callServer } from '../../../wire/exec/idempotency.js';
import { projectReview } from '../project.js';
import { bind } from './bind.js';

export const add = bind(reviewAdd, async (input, ctx) => {
  const r = await callServer(ctx, (o) => ctx.api.add({ target: input.target, verdict: input.verdict, body: input.body }, o));
  return { data: { review: projectReview(r) }, mutation: { selectors: { reviewId: r.id }, revision: r.revision } };
});
