// Owns the `member` server routes: GET /v1/me, GET /v1/members, POST /v1/agents (owner). Bootstrap is the handler's admin route.
import type { DomainRoute } from '../../server/http/route.js';
import { CreateAgentBody } from './contract.js';
import type { Members } from './service.js';

export const ROUTES: readonly DomainRoute<Members>[] = [
  { method: 'GET', path: '/v1/me', handle: (c, s) => s.me(c.actor) },
  { method: 'GET', path: '/v1/members', handle: (c, s) => s.list(c.actor) },
  { method: 'POST', path: '/v1/agents', body: CreateAgentBody, handle: (c, s) => s.createAgent(c.actor, c.body) },
];
