// Owns the `approval` domain module: descriptors, inventory rows, handlers, client, server service and routes, schema steps.
import type { InventoryRow } from '../../catalog/types.js';
import { defineDomain } from '../module.js';
import rows from './inventory.json' with { type: 'json' };
import { approvalActions } from './actions/index.js';
import { approvalClient } from './client.js';
import { APPROVAL_DESCRIPTORS } from './descriptors.js';
import { MIGRATIONS } from './migrations.js';
import { ROUTES } from './routes.js';
import { Approvals } from './service.js';

export const approvalDomain = defineDomain({
  name: 'approval',
  key: 'approvals',
  summary: 'Human approval of a subject.',
  selector: 'approvalId',
  descriptors: APPROVAL_DESCRIPTORS,
  inventory: rows as InventoryRow[],
  actions: approvalActions(),
  client: approvalClient,
  service: (deps) => new Approvals(deps),
  routes: ROUTES,
  migrations: MIGRATIONS,
});
