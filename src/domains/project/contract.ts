// Owns the `project` domain contract: the Project DTO (TypeBox), statuses, every bound, who may do what, and its server calls.
import { Type, type Static } from '@sinclair/typebox';
import { MemberRef, PageOf, Strict, Timestamp } from '../../catalog/schemas.js';
import { endpoints } from '../../shared/endpoint.js';
import type { ClientOf } from '../../server-client/derive.js';

export const NAME_MAX = 200;
export const DESCRIPTION_MAX = 4000;
export const QUERY_MAX = 200;
export const PROJECT_STATUSES = ['active', 'archived'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
export const ProjectStatus = Type.Union(PROJECT_STATUSES.map((s) => Type.Literal(s)));

/**
 * Who may do what: every workspace member reads (get, list) and creates; only the project's creator and the Human
 * owner update, archive and unarchive it (anyone else: denied). Tasks may be filed under an active project only.
 */
export const Project = Strict({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  status: ProjectStatus,
  createdBy: Type.String(),
  /** createdBy's display name and kind, read with the row (one batched lookup per page). */
  creator: MemberRef,
  revision: Type.Integer({ minimum: 0 }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type ProjectDto = Static<typeof Project>;

export const ProjectPage = PageOf('projects', Project);
export type ProjectPage = Static<typeof ProjectPage>;

export const Name = Type.String({ minLength: 1, maxLength: NAME_MAX });
export const Description = Type.String({ maxLength: DESCRIPTION_MAX });
const ArchiveBody = Strict({ expectedRevision: Type.Optional(Type.Integer({ minimum: 1 })) });

/** The project server calls: each one is a route on the server and a method of the daemon's `api.projects`. */
export const PROJECT = endpoints({
  create: { method: 'POST', path: '/v1/projects', body: Strict({ name: Name, description: Type.Optional(Description) }), output: Project },
  /** Ordered updatedAt DESC, id ASC. limit 1..100, default 20. */
  list: {
    method: 'GET',
    path: '/v1/projects',
    query: Type.Object({ status: Type.Optional(ProjectStatus), query: Type.Optional(Type.String()), limit: Type.Optional(Type.Integer()), cursor: Type.Optional(Type.String()) }),
    output: ProjectPage,
  },
  get: { method: 'GET', path: '/v1/projects/{projectId}', output: Project },
  /** Revision-checked: a stale expectedRevision is a conflict. */
  update: {
    method: 'PATCH',
    path: '/v1/projects/{projectId}',
    body: Strict({ expectedRevision: Type.Integer({ minimum: 1 }), name: Type.Optional(Name), description: Type.Optional(Description) }),
    output: Project,
  },
  archive: { method: 'POST', path: '/v1/projects/{projectId}/archive', body: ArchiveBody, output: Project },
  unarchive: { method: 'POST', path: '/v1/projects/{projectId}/unarchive', body: ArchiveBody, output: Project },
});
export type ProjectApi = ClientOf<typeof PROJECT>;
