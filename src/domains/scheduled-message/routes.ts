// Owns the `scheduled-message` server routes: create, list (?enabled&limit&cursor), get, update, enable, disable, delete, runs (?limit&cursor).
import { limitOf, type DomainRoute } from '../../server/http/route.js';
import { CreateBody, EmptyBody, UpdateBody } from './contract.js';
import type { Schedules } from './service.js';

export const ROUTES: readonly DomainRoute<Schedules>[] = [
  { method: 'POST', path: '/v1/scheduled-messages', body: CreateBody, handle: (c, s) => s.create(c.actor, c.body) },
  { method: 'GET', path: '/v1/scheduled-messages', query: ['enabled', 'limit', 'cursor'], handle: (c, s) => s.list(c.actor, { enabled: c.query.enabled, limit: limitOf(c.query), cursor: c.query.cursor }) },
  { method: 'GET', path: '/v1/scheduled-messages/{scheduleId}', handle: (c, s) => s.get(c.actor, c.params.scheduleId!) },
  { method: 'PATCH', path: '/v1/scheduled-messages/{scheduleId}', body: UpdateBody, handle: (c, s) => s.update(c.actor, c.params.scheduleId!, c.body) },
  { method: 'POST', path: '/v1/scheduled-messages/{scheduleId}/enable', body: EmptyBody, handle: (c, s) => s.setEnabled(c.actor, c.params.scheduleId!, true) },
  { method: 'POST', path: '/v1/scheduled-messages/{scheduleId}/disable', body: EmptyBody, handle: (c, s) => s.setEnabled(c.actor, c.params.scheduleId!, false) },
  { method: 'POST', path: '/v1/scheduled-messages/{scheduleId}/delete', body: EmptyBody, handle: (c, s) => s.delete(c.actor, c.params.scheduleId!) },
  { method: 'GET', path: '/v1/scheduled-messages/{scheduleId}/runs', query: ['limit', 'cursor'], handle: (c, s) => s.runs(c.actor, c.params.scheduleId!, { limit: limitOf(c.query), cursor: c.query.cursor }) },
];
