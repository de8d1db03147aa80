// Owns the `turn` domain module: the message feed and the turns addressed to each agent (ARCHITECTURE §9); no Exec actions.
import { defineDomain } from '../module.js';
import { turnClient } from './client.js';
import { MIGRATIONS } from './migrations.js';
import { ROUTES } from './routes.js';
import { Turns } from './service.js';

export const turnDomain = defineDomain({
  name: 'turn',
  key: 'turns',
  client: turnClient,
  service: (deps) => new Turns(deps),
  routes: ROUTES,
  migrations: MIGRATIONS,
});
