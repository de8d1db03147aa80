// Owns the `project` server routes: create, list (?status&query&limit&cursor), get, revision-checked update, archive, unarchive.
import { limitOf, type DomainRoute } from '../../server/http/route.js';
import { ArchiveProjectBody, CreateProjectBody, UpdateProjectBody } from './contract.js';
import type { Projects } from './service.js';

export const ROUTES: readonly DomainRoute<Projects>[] = [
  { method: 'POST', path: '/v1/projects', body: CreateProjectBody, handle: (c, s) => s.create(c.actor, c.body) },
  {
    method: 'GET',
    path: '/v1/projects',
    query: ['status', 'query', 'limit', 'cursor'],
    handle: (c, s) => s.list(c.actor, { status: c.query.status, query: c.query.query, limit: limitOf(c.query), cursor: c.query.cursor }),
  },
  { method: 'GET', path: '/v1/projects/{projectId}', handle: (c, s) => s.get(c.actor, c.params.projectId!) },
  { method: 'PATCH', path: '/v1/projects/{projectId}', body: UpdateProjectBody, handle: (c, s) => s.update(c.actor, { ...c.body, projectId: c.params.projectId! }) },
  { method: 'POST', path: '/v1/projects/{projectId}/archive', body: ArchiveProjectBody, handle: (c, s) => s.setStatus(c.actor, { ...c.body, projectId: c.params.projectId! }, 'archived') },
  { method: 'POST', path: '/v1/projects/{projectId}/unarchive', body: ArchiveProjectBody, handle: (c, s) => s.setStatus(c.actor, { ...c.body, projectId: c.params.projectId! }, 'active') },
];
