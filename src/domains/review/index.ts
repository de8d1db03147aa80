// Owns the `review` domain module: its declared actions, server calls (client and routes derive from them), service and schema steps.
import { defineDomain } from '../module.js';
import { clientOf } from '../../server-client/derive.js';
import { bindRoutes } from '../../server/http/route.js';
import { declaredActions } from '../../wire/exec/declare.js';
import { REVIEW_ACTIONS } from './actions.js';
import { REVIEW } from './contract.js';
import { MIGRATIONS } from './migrations.js';
import { Reviews } from './service.js';

export const reviewDomain = defineDomain({
  name: 'review',
  key: 'reviews',
  summary: 'Reviews on tasks and threads.',
  selector: 'reviewId',
  ...declaredActions(REVIEW_ACTIONS),
  client: (send) => clientOf(send, REVIEW),
  service: (deps) => new Reviews(deps),
  routes: bindRoutes<typeof REVIEW, Reviews>(REVIEW, {
    get: (s, a, i) => s.get(a, i.reviewId),
    resolve: (s, a, i) => s.resolve(a, i.reviewId),
    reopen: (s, a, i) => s.reopen(a, i.reviewId),
  }),
  migrations: MIGRATIONS,
});
