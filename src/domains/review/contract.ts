// Owns the `review` domain contract: the Review DTO (TypeBox), verdicts, statuses, bounds and its server calls.
import { Type, type Static } from '@sinclair/typebox';
import { MemberRef, PageOf, Strict, Timestamp } from '../../catalog/schemas.js';
import { endpoints } from '../../shared/endpoint.js';
import { TARGET_MAX, targetPattern } from '../../shared/target.js';
import type { TextBound } from '../../shared/bounds.js';
import type { ClientOf } from '../../server-client/derive.js';

/** The review body in characters and serialized JSON bytes (the one place; server and daemon check it). */
export const REVIEW_BODY = { field: 'body', min: 1, chars: 12_000, bytes: 12_000 } as const satisfies TextBound;
export const REVIEW_BODY_MAX = REVIEW_BODY.chars;
export const REVIEW_VERDICTS = ['approve', 'request_changes', 'comment'] as const;
export const REVIEW_STATUSES = ['open', 'resolved'] as const;
export type ReviewVerdict = (typeof REVIEW_VERDICTS)[number];
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export const ReviewVerdict = Type.Union(REVIEW_VERDICTS.map((v) => Type.Literal(v)));
export const ReviewStatus = Type.Union(REVIEW_STATUSES.map((v) => Type.Literal(v)));
/** Reviews hang off tasks and threads only. */
export const REVIEW_TARGETS = ['task', 'thread'] as const;

export const Review = Strict({
  id: Type.String(),
  target: Type.String(),
  authorId: Type.String(),
  /** The author's display name and kind, read with the row (one batched lookup per page). */
  author: MemberRef,
  verdict: ReviewVerdict,
  body: Type.String(),
  status: ReviewStatus,
  revision: Type.Integer({ minimum: 0 }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type ReviewDto = Static<typeof Review>;

export const ReviewPage = PageOf('reviews', Review);
export type ReviewPage = Static<typeof ReviewPage>;

/** Exact review thread targets: task:<id> or thread:<channelId>/<rootMessageId> (the channel domain's grammar). */
export const ReviewTarget = Type.String({
  pattern: targetPattern(REVIEW_TARGETS),
  maxLength: TARGET_MAX,
  description: 'Exact thread target: task:<taskId> or thread:<channelId>/<rootMessageId>.',
});

const EmptyBody = Strict({});

/** The review server calls: each one is a route on the server and a method of the daemon's `api.reviews`. */
export const REVIEW = endpoints({
  add: {
    method: 'POST',
    path: '/v1/reviews',
    body: Strict({ target: Type.String({ minLength: 1, maxLength: TARGET_MAX }), verdict: ReviewVerdict, body: Type.String({ minLength: 1, maxLength: REVIEW_BODY_MAX }) }),
    output: Review,
    bounds: { body: REVIEW_BODY },
  },
  /** Ordered updatedAt DESC, id DESC within the resolved thread. */
  list: {
    method: 'GET',
    path: '/v1/reviews',
    query: Type.Object({ target: Type.String(), status: Type.Optional(ReviewStatus), limit: Type.Optional(Type.Integer()), cursor: Type.Optional(Type.String()) }),
    output: ReviewPage,
  },
  get: { method: 'GET', path: '/v1/reviews/{reviewId}', output: Review },
  resolve: { method: 'POST', path: '/v1/reviews/{reviewId}/resolve', body: EmptyBody, output: Review },
  reopen: { method: 'POST', path: '/v1/reviews/{reviewId}/reopen', body: EmptyBody, output: Review },
});
export type ReviewApi = ClientOf<typeof REVIEW>;
