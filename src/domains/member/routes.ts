// Owns the `member` server routes: GET /v1/me, GET /v1/members, POST /v1/agents, POST /v1/invites, POST /v1/members/{memberId}/removal (owner/admin), POST /v1/agents/{memberId}/rename. Bootstrap and POST /v1/join (invite code) are handler routes.
import type { DomainRoute } from '../../server/http/route.js';
import { CreateAgentBody, InviteBody } from './contract.js';
import type { Members } from './service.js';

export const ROUTES: readonly DomainRoute<Members>[] = [
  { method: 'GET', path: '/v1/me', handle: (c, s) => s.me(c.actor) },
  { method: 'GET', path: '/v1/members', handle: (c, s) => s.list(c.actor) },
  { method: 'POST', path: '/v1/agents', body: CreateAgentBody, handle: (c, s) => s.createAgent(c.actor, c.body) },
  { method: 'POST', path: '/v1/agents/{memberId}/rename', body: CreateAgentBody, handle: (c, s) => s.renameAgent(c.actor, c.params.memberId!, c.body) },
  { method: 'POST', path: '/v1/invites', body: InviteBody, handle: (c, s) => s.invite(c.actor, c.body) },
  { method: 'POST', path: '/v1/members/{memberId}/removal', handle: (c, s) => s.remove(c.actor, c.params.memberId!) },
];
