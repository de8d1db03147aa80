// Owns the `turn` domain module: the message feed and the turns addressed to each agent (ARCHITECTURE §9); no Exec actions.
import { defineDomain } from '../module.js';
import { clientOf } from '../../server-client/derive.js';
import { bindRoutes } from '../../server/http/route.js';
import { TURN } from './contract.js';
import { MIGRATIONS } from './migrations.js';
import { Turns } from './service.js';

export const turnDomain = defineDomain({
  name: 'turn',
  key: 'turns',
  client: (send) => clientOf(send, TURN),
  service: (deps) => new Turns(deps),
  // A missing cursor or wait reads from the start without waiting.
  routes: bindRoutes<typeof TURN, Turns>(TURN, { read: (s, a, i) => s.read(a, { after: i.after ?? 0, waitMs: i.waitMs ?? 0 }) }),
  migrations: MIGRATIONS,
});
