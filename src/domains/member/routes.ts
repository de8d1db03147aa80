// Owns the `member` server routes: GET /v1/me, GET /v1/members, POST /v1/agents, POST /v1/agents/{memberId}/rename, POST /v1/members/{memberId}/removal, POST /v1/members/{memberId}/role, invites (POST/GET /v1/invites, POST /v1/invites/{inviteId}/revoke). Bootstrap and POST /v1/join (invite code) are handler routes.
import { limitOf, type DomainRoute } from '../../server/http/route.js';
import { CreateAgentBody, InviteBody, RoleBody } from './contract.js';
import type { Members } from './service.js';

export const ROUTES: readonly DomainRoute<Members>[] = [
  { method: 'GET', path: '/v1/me', handle: (c, s) => s.me(c.actor) },
  { method: 'GET', path: '/v1/members', handle: (c, s) => s.list(c.actor) },
  { method: 'POST', path: '/v1/agents', body: CreateAgentBody, handle: (c, s) => s.createAgent(c.actor, c.body) },
  { method: 'POST', path: '/v1/agents/{memberId}/rename', body: CreateAgentBody, handle: (c, s) => s.renameAgent(c.actor, c.params.memberId!, c.body) },
  { method: 'POST', path: '/v1/invites', body: InviteBody, handle: (c, s) => s.invite(c.actor, c.body) },
  { method: 'GET', path: '/v1/invites', query: ['limit', 'cursor'], handle: (c, s) => s.listInvites(c.actor, { limit: limitOf(c.query), cursor: c.query.cursor }) },
  { method: 'POST', path: '/v1/invites/{inviteId}/revoke', handle: (c, s) => s.revokeInvite(c.actor, c.params.inviteId!) },
  { method: 'POST', path: '/v1/members/{memberId}/removal', handle: (c, s) => s.remove(c.actor, c.params.memberId!) },
  { method: 'POST', path: '/v1/members/{memberId}/role', body: RoleBody, handle: (c, s) => s.setRole(c.actor, c.params.memberId!, c.body.role) },
];
