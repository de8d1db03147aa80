// Owns the `task` domain module: descriptors, inventory rows, handlers, client, server service and routes, schema steps.
import { defineDomain } from '../module.js';
import type { InventoryRow } from '../../catalog/types.js';
import rows from './inventory.json' with { type: 'json' };
import { taskActions } from './actions/index.js';
import { taskClient } from './client.js';
import { TASK_DESCRIPTORS } from './descriptors.js';
import { MIGRATIONS } from './migrations.js';
import { ROUTES } from './routes.js';
import { Tasks } from './service.js';

export const taskDomain = defineDomain({
  name: 'task',
  key: 'tasks',
  summary: 'Tasks and their lifecycle.',
  selector: 'taskId',
  descriptors: TASK_DESCRIPTORS,
  inventory: rows as InventoryRow[],
  actions: taskActions(),
  client: taskClient,
  service: (deps) => new Tasks(deps),
  routes: ROUTES,
  migrations: MIGRATIONS,
});
