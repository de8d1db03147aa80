// Owns the `review` server routes: add, list (?target&status&limit&cursor), get, resolve, reopen.
import { limitOf, type DomainRoute } from '../../server/http/route.js';
import { AddReviewBody, EmptyBody, type ReviewStatus } from './contract.js';
import type { Reviews } from './service.js';

export const ROUTES: readonly DomainRoute<Reviews>[] = [
  { method: 'POST', path: '/v1/reviews', body: AddReviewBody, handle: (c, s) => s.add(c.actor, c.body) },
  {
    method: 'GET',
    path: '/v1/reviews',
    query: ['target', 'status', 'limit', 'cursor'],
    handle: (c, s) => s.list(c.actor, { target: c.query.target ?? '', status: c.query.status as ReviewStatus | undefined, limit: limitOf(c.query), cursor: c.query.cursor }),
  },
  { method: 'GET', path: '/v1/reviews/{reviewId}', handle: (c, s) => s.get(c.actor, c.params.reviewId!) },
  { method: 'POST', path: '/v1/reviews/{reviewId}/resolve', body: EmptyBody, handle: (c, s) => s.resolve(c.actor, c.params.reviewId!) },
  { method: 'POST', path: '/v1/reviews/{reviewId}/reopen', body: EmptyBody, handle: (c, s) => s.reopen(c.actor, c.params.reviewId!) },
];
