// Owns the daemon's `review` client: `api.reviews.*` over the server's review routes.
import { qs, seg, type CallOptions, type Send } from '../../server-client/send.js';
import type { ReviewDto, ReviewPage, ReviewStatus, ReviewVerdict } from './contract.js';
import { checkText } from '../../shared/bounds.js';
import { REVIEW_BODY } from './contract.js';

export interface ReviewApi {
  add(input: { target: string; verdict: ReviewVerdict; body: string }, o?: CallOptions): Promise<ReviewDto>;
  get(reviewId: string, o?: CallOptions): Promise<ReviewDto>;
  /** Ordered updatedAt DESC, id DESC within the resolved thread. */
  list(input: { target: string; status?: ReviewStatus; limit?: number; cursor?: string }, o?: CallOptions): Promise<ReviewPage>;
  resolve(reviewId: string, o?: CallOptions): Promise<ReviewDto>;
  reopen(reviewId: string, o?: CallOptions): Promise<ReviewDto>;
}

export function reviewClient(send: Send): ReviewApi {
  const at = (id: string) => `/v1/reviews/${seg(id, 'reviewId')}`;
  return {
    // The server enforces the bound; the daemon checks the same contract first.
    add: async (input, o) => (checkText(input.body, REVIEW_BODY), send({ method: 'POST', path: '/v1/reviews', body: input, opts: o })),
    get: (id, o) => send({ method: 'GET', path: at(id), opts: o }),
    list: (input, o) => send({ method: 'GET', path: `/v1/reviews${qs({ target: input.target, status: input.status, limit: input.limit, cursor: input.cursor })}`, opts: o }),
    resolve: (id, o) => send({ method: 'POST', path: `${at(id)}/resolve`, body: {}, opts: o }),
    reopen: (id, o) => send({ method: 'POST', path: `${at(id)}/reopen`, body: {}, opts: o }),
  };
}
