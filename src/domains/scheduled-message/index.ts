// Owns the `scheduled-message` domain module: descriptors, inventory rows, handlers, client, server service, routes, schema step and the scheduler.
import type { InventoryRow } from '../../catalog/types.js';
import { defineDomain } from '../module.js';
import rows from './inventory.json' with { type: 'json' };
import { scheduleActions } from './actions/index.js';
import { scheduleClient } from './client.js';
import { SCHEDULE_DESCRIPTORS } from './descriptors.js';
import { MIGRATIONS } from './migrations.js';
import { ROUTES } from './routes.js';
import { Scheduler } from './scheduler.js';
import { Schedules } from './service.js';

export const scheduledMessageDomain = defineDomain({
  name: 'scheduled-message',
  key: 'schedules',
  summary: 'Messages posted at a time or on a cron.',
  selector: 'scheduleId',
  descriptors: SCHEDULE_DESCRIPTORS,
  inventory: rows as InventoryRow[],
  actions: scheduleActions(),
  client: scheduleClient,
  service: (deps) => new Schedules(deps),
  routes: ROUTES,
  migrations: MIGRATIONS,
  background: (deps) => new Scheduler(deps),
});
