// Owns the `workspace` domain module: descriptors, inventory rows, handlers, client, server service and routes, schema steps.
import type { InventoryRow } from '../../catalog/types.js';
import { defineDomain } from '../module.js';
import rows from './inventory.json' with { type: 'json' };
import { workspaceActions } from './actions/index.js';
import { workspaceClient } from './client.js';
import { WORKSPACE_DESCRIPTORS } from './descriptors.js';
import { MIGRATIONS } from './migrations.js';
import { ROUTES } from './routes.js';
import { Workspaces } from './service.js';

export const workspaceDomain = defineDomain({
  name: 'workspace',
  key: 'workspace',
  summary: 'The workspace and its member directory.',
  descriptors: WORKSPACE_DESCRIPTORS,
  inventory: rows as InventoryRow[],
  actions: workspaceActions(),
  client: workspaceClient,
  service: (deps) => new Workspaces(deps),
  routes: ROUTES,
  migrations: MIGRATIONS,
});
