// Owns the daemon's `project` client: `api.projects.*` over the server's project routes.
import { qs, seg, type CallOptions, type Send } from '../../server-client/send.js';
import type { ProjectDto, ProjectPage, ProjectStatus } from './contract.js';

export interface ProjectApi {
  create(input: { name: string; description?: string }, o?: CallOptions): Promise<ProjectDto>;
  get(projectId: string, o?: CallOptions): Promise<ProjectDto>;
  /** Ordered updatedAt DESC, id ASC. limit 1..100, default 20. */
  list(input: { status?: ProjectStatus; query?: string; limit?: number; cursor?: string }, o?: CallOptions): Promise<ProjectPage>;
  update(input: { projectId: string; expectedRevision: number; name?: string; description?: string }, o?: CallOptions): Promise<ProjectDto>;
  archive(input: { projectId: string; expectedRevision?: number }, o?: CallOptions): Promise<ProjectDto>;
  unarchive(input: { projectId: string; expectedRevision?: number }, o?: CallOptions): Promise<ProjectDto>;
}

export function projectClient(send: Send): ProjectApi {
  const at = (id: string) => `/v1/projects/${seg(id, 'projectId')}`;
  const rev = (r: number | undefined) => (r === undefined ? {} : { expectedRevision: r });
  return {
    create: (input, o) => send({ method: 'POST', path: '/v1/projects', body: input, opts: o }),
    get: (id, o) => send({ method: 'GET', path: at(id), opts: o }),
    list: (input, o) => send({ method: 'GET', path: `/v1/projects${qs({ status: input.status, query: input.query, limit: input.limit, cursor: input.cursor })}`, opts: o }),
    update: ({ projectId, ...rest }, o) => send({ method: 'PATCH', path: at(projectId), body: rest, opts: o }),
    archive: (input, o) => send({ method: 'POST', path: `${at(input.projectId)}/archive`, body: rev(input.expectedRevision), opts: o }),
    unarchive: (input, o) => send({ method: 'POST', path: `${at(input.projectId)}/unarchive`, body: rev(input.expectedRevision), opts: o }),
  };
}
