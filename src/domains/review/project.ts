// Owns the model-visible review projection (distinct from the DTO) and the TypeBox schema that describes exactly it.
import { Type, type Static } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { COMPACT_TIME_PATTERN, compactTime } from '../../shared/compact.js';
import { ReviewStatus, ReviewVerdict, type ReviewDto } from './contract.js';

/** `id` for get/resolve/reopen, `revision` for change detection; the target is shown because get has no other way to learn it. */
export const ReviewView = Strict({
  id: Type.String(),
  target: Type.String(),
  authorId: Type.String(),
  verdict: ReviewVerdict,
  status: ReviewStatus,
  body: Type.String(),
  revision: Type.Integer({ minimum: 0 }),
  updatedAt: Type.String({ pattern: COMPACT_TIME_PATTERN }),
});
export type ReviewView = Static<typeof ReviewView>;

export function projectReview(r: ReviewDto): ReviewView {
  return { id: r.id, target: r.target, authorId: r.authorId, verdict: r.verdict, status: r.status, body: r.body, revision: r.revision, updatedAt: compactTime(r.updatedAt) };
}

/**
 * A review in a list: the same minus the target (the list's filter names it), revision (no review call takes it) and
 * updatedAt (the list is in that order); `review get` shows all three.
 */
export const ReviewListItem = Type.Omit(ReviewView, ['target', 'revision', 'updatedAt'], { additionalProperties: false });
export type ReviewListItem = Static<typeof ReviewListItem>;

export function projectReviewListItem(r: ReviewDto): ReviewListItem {
  return { id: r.id, authorId: r.authorId, verdict: r.verdict, status: r.status, body: r.body };
}
