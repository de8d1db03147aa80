// Owns the `extension` domain module: App-hosted Extensions (github, gitea) — installations, the snapshot runtimes pin,
// `/runtime/ext` forwarding, and the PR watcher. Its Exec actions are not built-ins: they reach runtimes only through
// the verified snapshot frozen into each RuntimeCatalog (see snapshot.ts and forward.ts for the daemon side).
import { defineDomain } from '../module.js';
import { clientOf } from '../../server-client/derive.js';
import { bindRoutes, type DomainRoute } from '../../server/http/route.js';
import { EXTENSION } from './contract.js';
import { MIGRATIONS } from './migrations.js';
import { Extensions } from './service.js';
import { PrWatcher } from './watcher.js';

// Hand-written: unauthenticated by member, the provider signs each delivery with the installation's webhook secret (checked first).
const webhook: DomainRoute<Extensions> = { method: 'POST', path: '/v1/extensions/{name}/webhook', handle: async () => ({}), webhook: (c, s) => s.webhook(c.params.name!, c.req) };

export const extensionDomain = defineDomain({
  name: 'extension',
  key: 'extensions',
  client: (send) => clientOf(send, EXTENSION),
  service: (deps) => new Extensions(deps),
  routes: [...bindRoutes<typeof EXTENSION, Extensions>(EXTENSION, { installations: async (s, a) => ({ installations: await s.installations(a) }) }), webhook],
  migrations: MIGRATIONS,
  background: (deps) => new PrWatcher(deps),
});
