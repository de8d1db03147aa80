// Owns the `workflow` domain module: descriptors, inventory rows, handlers, client, server service and routes, schema
// steps, and the loop that moves approval steps with their approval's decision.
import type { InventoryRow } from '../../catalog/types.js';
import { defineDomain } from '../module.js';
import rows from './inventory.json' with { type: 'json' };
import { workflowActions } from './actions/index.js';
import { workflowClient } from './client.js';
import { WORKFLOW_DESCRIPTORS } from './descriptors.js';
import { MIGRATIONS } from './migrations.js';
import { ROUTES } from './routes.js';
import { Workflows } from './service.js';
import { ApprovalSync } from './sync.js';

export const workflowDomain = defineDomain({
  name: 'workflow',
  key: 'workflows',
  summary: 'Plans of steps run by agents and approvals.',
  readBack: { planId: { action: 'plan', operation: 'show' }, triggerId: { action: 'trigger', operation: 'show' }, runId: { action: 'run', operation: 'show' }, stepId: { action: 'step', operation: 'get' } },
  descriptors: WORKFLOW_DESCRIPTORS,
  inventory: rows as unknown as InventoryRow[],
  actions: workflowActions(),
  client: workflowClient,
  service: (deps) => new Workflows(deps),
  routes: ROUTES,
  migrations: MIGRATIONS,
  background: (deps) => new ApprovalSync(deps, new Workflows(deps).runs),
});
