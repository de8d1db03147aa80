// Owns the `member` domain module: workspace members, agents and authentication (server side; no Exec actions yet).
import { defineDomain } from '../module.js';
import { memberClient } from './client.js';
import { BootstrapBody, JoinBody } from './contract.js';
import { MIGRATIONS } from './migrations.js';
import { ROUTES } from './routes.js';
import { Members } from './service.js';

export const memberDomain = defineDomain({
  name: 'member',
  key: 'members',
  client: memberClient,
  service: (deps) => new Members(deps),
  routes: ROUTES,
  migrations: MIGRATIONS,
  // The server's authentication, bootstrap and join answer through this domain's service.
  accounts: { bootstrapBody: BootstrapBody, joinBody: JoinBody, of: (members) => members },
});
