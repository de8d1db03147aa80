// Owns the `profile` server routes: GET/PATCH /v1/profile (the caller's) and GET/PATCH /v1/profiles/{memberId}.
import type { DomainRoute } from '../../server/http/route.js';
import { UpdateProfileBody } from './contract.js';
import type { Profiles } from './service.js';

export const ROUTES: readonly DomainRoute<Profiles>[] = [
  { method: 'GET', path: '/v1/profile', handle: (c, s) => s.get(c.actor) },
  { method: 'PATCH', path: '/v1/profile', body: UpdateProfileBody, handle: (c, s) => s.update(c.actor, c.body) },
  { method: 'GET', path: '/v1/profiles/{memberId}', handle: (c, s) => s.get(c.actor, c.params.memberId!) },
  { method: 'PATCH', path: '/v1/profiles/{memberId}', body: UpdateProfileBody, handle: (c, s) => s.update(c.actor, { ...c.body, memberId: c.params.memberId! }) },
];
