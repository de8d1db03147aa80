// Owns the `turn` domain module: the message feed and the turns addressed to each agent (ARCHITECTURE §9); no Exec actions.
import { defineDomain } from '../module.js';
import { AppError } from '../../shared/errors.js';
import { clientOf } from '../../server-client/derive.js';
import type { DomainRoute } from '../../server/http/route.js';
import { TURN } from './contract.js';
import { MIGRATIONS } from './migrations.js';
import { Turns } from './service.js';

function intOf(v: string | undefined, name: string): number {
  if (v === undefined) return 0;
  if (!/^[0-9]{1,15}$/.test(v)) throw new AppError('validation_failed', `${name} must be a non-negative integer`);
  return Number(v);
}

// Hand-written route: a feed cursor runs past the 6 digits the derived routes decode for an integer query (limit).
const read: DomainRoute<Turns> = { method: 'GET', path: TURN.read.path, query: ['after', 'waitMs'], handle: (c, s) => s.read(c.actor, { after: intOf(c.query.after, 'after'), waitMs: intOf(c.query.waitMs, 'waitMs') }) };

export const turnDomain = defineDomain({
  name: 'turn',
  key: 'turns',
  client: (send) => clientOf(send, TURN),
  service: (deps) => new Turns(deps),
  routes: [read],
  migrations: MIGRATIONS,
});
