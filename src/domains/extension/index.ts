// Owns the `extension` domain module: App-hosted Extensions (github, gitea) — installations, the snapshot runtimes pin,
// `/runtime/ext` forwarding, and the PR watcher. Its Exec actions are not built-ins: they reach runtimes only through
// the verified snapshot frozen into each RuntimeCatalog (see snapshot.ts and forward.ts for the daemon side).
import { defineDomain } from '../module.js';
import { extensionClient } from './client.js';
import { MIGRATIONS } from './migrations.js';
import { ROUTES } from './routes.js';
import { Extensions } from './service.js';
import { PrWatcher } from './watcher.js';

export const extensionDomain = defineDomain({
  name: 'extension',
  key: 'extensions',
  client: extensionClient,
  service: (deps) => new Extensions(deps),
  routes: ROUTES,
  migrations: MIGRATIONS,
  background: (deps) => new PrWatcher(deps),
});
