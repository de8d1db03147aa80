// Owns the `review` Exec actions, one declaration each (help, input, output, example, risk, result policy, over-budget
// guidance, and the server call with its projection): the descriptors, inventory rows and handlers derive from these.
import { Type } from '@sinclair/typebox';
import { Authors, Id, Strict, mutationSelectors } from '../../catalog/schemas.js';
import { applied, execCall, execList, type DeclaredAction } from '../../wire/exec/declare.js';
import { REVIEW, REVIEW_BODY_MAX, ReviewStatus, ReviewTarget, ReviewVerdict, type ReviewDto } from './contract.js';
import { ReviewListItem, ReviewView, projectReview, projectReviewPage } from './project.js';

const ReviewId = Id('Review id, e.g. rev3611.');
const ReviewOut = Strict({ review: ReviewView });
const readBack = applied('agentteam exec review get');
const review = (r: ReviewDto) => ({ review: projectReview(r) });
const changed = (r: ReviewDto) => ({ selectors: { reviewId: r.id }, revision: r.revision });

const add = execCall({
  domain: 'review',
  action: 'add',
  summary: 'Add a review (approve, request_changes or comment) to a task or thread.',
  input: Strict({ target: ReviewTarget, verdict: ReviewVerdict, body: Type.String({ minLength: 1, maxLength: REVIEW_BODY_MAX }), ...mutationSelectors }),
  output: ReviewOut,
  example: { target: 'task:tsk41342', verdict: 'request_changes', body: 'Please add a changelog entry.' },
  risk: 'write',
  resultPolicy: 'mutation',
  overBudget: readBack,
  call: REVIEW.add,
  result: review,
  facts: changed,
});

const get = execCall({
  domain: 'review',
  action: 'get',
  summary: 'Get one review by id.',
  input: Strict({ reviewId: ReviewId }),
  output: ReviewOut,
  example: { reviewId: 'rev3611' },
  risk: 'read',
  resultPolicy: 'narrow',
  overBudget: { hint: "The review is too large to print whole; list the thread's reviews to see the fields you need.", next: 'agentteam exec review list' },
  call: REVIEW.get,
  result: review,
});

const list = execList({
  domain: 'review',
  action: 'list',
  summary: 'List the reviews of one task or thread, most recently updated first.',
  items: 'reviews',
  item: ReviewListItem,
  extra: { authors: Authors },
  filters: { target: ReviewTarget, status: Type.Optional(ReviewStatus) },
  filtersRequired: true,
  example: { filters: { target: 'task:tsk41342', status: 'open' } },
  overBudget: { hint: 'Request a smaller page with limit, or continue from nextCursor.', next: `agentteam exec review list '{"limit":5,"filters":{"target":"task:<taskId>"}}'` },
  call: REVIEW.list,
  result: projectReviewPage,
});

/** A status move: one call on the review's own path. */
function move(action: 'resolve' | 'reopen', summary: string) {
  return execCall({
    domain: 'review',
    action,
    summary,
    input: Strict({ reviewId: ReviewId, ...mutationSelectors }),
    output: ReviewOut,
    example: { reviewId: 'rev3611' },
    risk: 'write',
    resultPolicy: 'mutation',
    overBudget: readBack,
    call: REVIEW[action],
    result: review,
    facts: changed,
  });
}

/** The review actions in help order. */
export const REVIEW_ACTIONS: readonly DeclaredAction<any, any>[] = [add, get, list, move('resolve', 'Mark a review resolved.'), move('reopen', 'Reopen a resolved review.')];
