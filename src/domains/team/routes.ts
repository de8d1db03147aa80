// Owns the `team` server routes: create, list, get, revision-checked update, add/remove member, members (keyset).
import { limitOf, type DomainRoute } from '../../server/http/route.js';
import { CreateTeamBody, TeamMemberBody, UpdateTeamBody } from './contract.js';
import type { Teams } from './service.js';

export const ROUTES: readonly DomainRoute<Teams>[] = [
  { method: 'POST', path: '/v1/teams', body: CreateTeamBody, handle: (c, s) => s.create(c.actor, c.body) },
  { method: 'GET', path: '/v1/teams', query: ['limit', 'cursor'], handle: (c, s) => s.list(c.actor, { limit: limitOf(c.query), cursor: c.query.cursor }) },
  { method: 'GET', path: '/v1/teams/{teamId}', handle: (c, s) => s.get(c.actor, c.params.teamId!) },
  { method: 'PATCH', path: '/v1/teams/{teamId}', body: UpdateTeamBody, handle: (c, s) => s.update(c.actor, { ...c.body, teamId: c.params.teamId! }) },
  { method: 'POST', path: '/v1/teams/{teamId}/members', body: TeamMemberBody, handle: (c, s) => s.addMember(c.actor, { teamId: c.params.teamId!, memberId: c.body.memberId }) },
  { method: 'POST', path: '/v1/teams/{teamId}/members/{memberId}/remove', handle: (c, s) => s.removeMember(c.actor, { teamId: c.params.teamId!, memberId: c.params.memberId! }) },
  { method: 'GET', path: '/v1/teams/{teamId}/members', query: ['limit', 'cursor'], handle: (c, s) => s.members(c.actor, { teamId: c.params.teamId!, limit: limitOf(c.query), cursor: c.query.cursor }) },
];
