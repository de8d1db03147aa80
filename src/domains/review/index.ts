// Owns the `review` domain module: descriptors, inventory rows, handlers, client, server service and routes, schema steps.
import { defineDomain } from '../module.js';
import type { InventoryRow } from '../../catalog/types.js';
import rows from './inventory.json' with { type: 'json' };
import { reviewActions } from './actions/index.js';
import { reviewClient } from './client.js';
import { REVIEW_DESCRIPTORS } from './descriptors.js';
import { MIGRATIONS } from './migrations.js';
import { ROUTES } from './routes.js';
import { Reviews } from './service.js';

export const reviewDomain = defineDomain({
  name: 'review',
  key: 'reviews',
  summary: 'Reviews on tasks and threads.',
  selector: 'reviewId',
  descriptors: REVIEW_DESCRIPTORS,
  inventory: rows as InventoryRow[],
  actions: reviewActions(),
  client: reviewClient,
  service: (deps) => new Reviews(deps),
  routes: ROUTES,
  migrations: MIGRATIONS,
});
