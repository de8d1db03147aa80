// Owns the `team` domain module: descriptors, inventory rows, handlers, client, server service and routes, schema steps.
import type { InventoryRow } from '../../catalog/types.js';
import { defineDomain } from '../module.js';
import rows from './inventory.json' with { type: 'json' };
import { teamActions } from './actions/index.js';
import { teamClient } from './client.js';
import { TEAM_DESCRIPTORS } from './descriptors.js';
import { MIGRATIONS } from './migrations.js';
import { ROUTES } from './routes.js';
import { Teams } from './service.js';

export const teamDomain = defineDomain({
  name: 'team',
  key: 'teams',
  summary: 'Teams and their members.',
  selector: 'teamId',
  descriptors: TEAM_DESCRIPTORS,
  inventory: rows as InventoryRow[],
  actions: teamActions(),
  client: teamClient,
  service: (deps) => new Teams(deps),
  routes: ROUTES,
  migrations: MIGRATIONS,
});
