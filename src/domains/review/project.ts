// Owns the model-visible review projection (distinct from the DTO) and the TypeBox schema that describes exactly it.
import { Type, type Static } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { COMPACT_TIME_PATTERN, authorLabel, compactTime, pagePeople } from '../../shared/compact.js';
import { ReviewVerdict, type ReviewDto, type ReviewPage } from './contract.js';

/** Reviews are open until resolved: only a resolved one says so. */
const Status = Type.Optional(Type.Union([Type.Literal('resolved')], { description: 'Absent: open.' }));

/**
 * `id` for get/resolve/reopen, `revision` for change detection; the target is shown because get has no other way to
 * learn it. `by` is the author as `name (kind)`: no review call takes a member id.
 */
export const ReviewView = Strict({
  id: Type.String(),
  target: Type.String(),
  by: Type.String({ description: 'Author: name (kind).' }),
  verdict: ReviewVerdict,
  status: Status,
  body: Type.String(),
  revision: Type.Integer({ minimum: 0 }),
  updatedAt: Type.String({ pattern: COMPACT_TIME_PATTERN }),
});
export type ReviewView = Static<typeof ReviewView>;

/** Only a resolved review carries `status`. */
const status = (r: ReviewDto): { status?: 'resolved' } => (r.status === 'open' ? {} : { status: 'resolved' });

export function projectReview(r: ReviewDto): ReviewView {
  return { id: r.id, target: r.target, by: authorLabel(r.author), verdict: r.verdict, ...status(r), body: r.body, revision: r.revision, updatedAt: compactTime(r.updatedAt) };
}

/**
 * A review in a list: `by` is the author's display name, its kind said once per page in `authors` (as in a message
 * page); minus the target (the list's filter names it), revision (no review call takes it) and updatedAt (the list is
 * in that order); `review get` shows all three.
 */
export const ReviewListItem = Strict({
  id: Type.String(),
  by: Type.String({ description: 'Author name; kind in authors.' }),
  verdict: ReviewVerdict,
  status: Status,
  body: Type.String(),
});
export type ReviewListItem = Static<typeof ReviewListItem>;

export function projectReviewPage(page: ReviewPage): { reviews: ReviewListItem[]; authors: Record<string, 'human' | 'agent'> } {
  const people = pagePeople(page.reviews.map((r) => r.author));
  const reviews = page.reviews.map((r): ReviewListItem => ({ id: r.id, by: people.label(r.author), verdict: r.verdict, ...status(r), body: r.body }));
  return { reviews, authors: people.authors };
}
