// Owns the `profile` domain module: descriptors, inventory rows, handlers, client, server service and routes, schema steps.
import type { InventoryRow } from '../../catalog/types.js';
import { defineDomain } from '../module.js';
import rows from './inventory.json' with { type: 'json' };
import { profileActions } from './actions/index.js';
import { profileClient } from './client.js';
import { PROFILE_DESCRIPTORS } from './descriptors.js';
import { MIGRATIONS } from './migrations.js';
import { ROUTES } from './routes.js';
import { Profiles } from './service.js';

export const profileDomain = defineDomain({
  name: 'profile',
  key: 'profiles',
  summary: "Read any member's public profile; edit your own.",
  selector: 'memberId',
  descriptors: PROFILE_DESCRIPTORS,
  inventory: rows as InventoryRow[],
  actions: profileActions(),
  client: profileClient,
  service: (deps) => new Profiles(deps),
  routes: ROUTES,
  migrations: MIGRATIONS,
});
