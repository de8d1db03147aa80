// Owns the `project` domain module: descriptors, inventory rows, handlers, client, server service and routes, schema steps.
import type { InventoryRow } from '../../catalog/types.js';
import { defineDomain } from '../module.js';
import rows from './inventory.json' with { type: 'json' };
import { projectActions } from './actions/index.js';
import { projectClient } from './client.js';
import { PROJECT_DESCRIPTORS } from './descriptors.js';
import { MIGRATIONS } from './migrations.js';
import { ROUTES } from './routes.js';
import { Projects } from './service.js';

export const projectDomain = defineDomain({
  name: 'project',
  key: 'projects',
  summary: 'Projects that group tasks.',
  selector: 'projectId',
  descriptors: PROJECT_DESCRIPTORS,
  inventory: rows as InventoryRow[],
  actions: projectActions(),
  client: projectClient,
  service: (deps) => new Projects(deps),
  routes: ROUTES,
  migrations: MIGRATIONS,
});
