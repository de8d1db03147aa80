// Owns the `member` domain module: workspace members, agents and authentication (server side; no Exec actions yet).
import { defineDomain } from '../module.js';
import { clientOf } from '../../server-client/derive.js';
import { bindRoutes } from '../../server/http/route.js';
import { BootstrapBody, JoinBody, MEMBER } from './contract.js';
import { MIGRATIONS } from './migrations.js';
import { Members } from './service.js';

export const memberDomain = defineDomain({
  name: 'member',
  key: 'members',
  client: (send) => clientOf(send, MEMBER),
  service: (deps) => new Members(deps),
  routes: bindRoutes<typeof MEMBER, Members>(MEMBER),
  migrations: MIGRATIONS,
  // The server's authentication, bootstrap and join answer through this domain's service.
  accounts: { bootstrapBody: BootstrapBody, joinBody: JoinBody, of: (members) => members },
});
