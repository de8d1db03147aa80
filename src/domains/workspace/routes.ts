// Owns the `workspace` server routes: GET /v1/workspace (name, counts) and GET /v1/workspace/members (?kind&query&limit&cursor).
import { limitOf, type DomainRoute } from '../../server/http/route.js';
import type { Workspaces } from './service.js';

export const ROUTES: readonly DomainRoute<Workspaces>[] = [
  { method: 'GET', path: '/v1/workspace', handle: (c, s) => s.get(c.actor) },
  {
    method: 'GET',
    path: '/v1/workspace/members',
    query: ['kind', 'query', 'limit', 'cursor'],
    handle: (c, s) => s.members(c.actor, { kind: c.query.kind, query: c.query.query, limit: limitOf(c.query), cursor: c.query.cursor }),
  },
];
