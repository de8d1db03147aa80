// Owns the `review` domain descriptors: inputs, outputs, summaries, canonical examples, risk and result policy (no handlers).
import { Type } from '@sinclair/typebox';
import { defineAction } from '../../catalog/descriptors/define.js';
import { Authors, Cursor, HasMore, Id, Limit, NextCursor, Strict, mutationSelectors } from '../../catalog/schemas.js';
import { REVIEW_BODY_MAX, ReviewStatus, ReviewTarget, ReviewVerdict } from './contract.js';
import { ReviewListItem, ReviewView } from './project.js';

const ReviewId = Id('Review id, e.g. rev3611.');
const ReviewOut = Strict({ review: ReviewView });

export const reviewAdd = defineAction({
  domain: 'review',
  action: 'add',
  summary: 'Add a review (approve, request_changes or comment) to a task or thread.',
  input: Strict({ target: ReviewTarget, verdict: ReviewVerdict, body: Type.String({ minLength: 1, maxLength: REVIEW_BODY_MAX }), ...mutationSelectors }),
  output: ReviewOut,
  example: { target: 'task:tsk41342', verdict: 'request_changes', body: 'Please add a changelog entry.' },
  risk: 'write',
  resultPolicy: 'mutation',
});

export const reviewGet = defineAction({
  domain: 'review',
  action: 'get',
  summary: 'Get one review by id.',
  input: Strict({ reviewId: ReviewId }),
  output: ReviewOut,
  example: { reviewId: 'rev3611' },
  risk: 'read',
  resultPolicy: 'narrow',
});

export const reviewList = defineAction({
  domain: 'review',
  action: 'list',
  summary: 'List the reviews of one task or thread, most recently updated first.',
  input: Strict({
    limit: Limit,
    cursor: Cursor,
    filters: Strict({ target: ReviewTarget, status: Type.Optional(ReviewStatus) }),
  }),
  output: Strict({ reviews: Type.Array(ReviewListItem), authors: Authors, hasMore: HasMore, nextCursor: NextCursor }),
  example: { filters: { target: 'task:tsk41342', status: 'open' } },
  risk: 'read',
  resultPolicy: 'cursor',
});

export const reviewResolve = defineAction({
  domain: 'review',
  action: 'resolve',
  summary: 'Mark a review resolved.',
  input: Strict({ reviewId: ReviewId, ...mutationSelectors }),
  output: ReviewOut,
  example: { reviewId: 'rev3611' },
  risk: 'write',
  resultPolicy: 'mutation',
});

export const reviewReopen = defineAction({
  domain: 'review',
  action: 'reopen',
  summary: 'Reopen a resolved review.',
  input: Strict({ reviewId: ReviewId, ...mutationSelectors }),
  output: ReviewOut,
  example: { reviewId: 'rev3611' },
  risk: 'write',
  resultPolicy: 'mutation',
});

export const REVIEW_DESCRIPTORS = [reviewAdd, reviewGet, reviewList, reviewResolve, reviewReopen] as const;
