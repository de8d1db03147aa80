// Owns the daemon's `workspace` client: `api.workspace.*` over the server's workspace routes.
import { qs, type CallOptions, type Send } from '../../server-client/send.js';
import type { WorkspaceDto, WorkspaceMemberPage } from './contract.js';

export interface WorkspaceApi {
  get(o?: CallOptions): Promise<WorkspaceDto>;
  /** Ordered name ASC, memberId ASC (binary). limit 1..100, default 20. */
  members(input: { kind?: 'human' | 'agent'; query?: string; limit?: number; cursor?: string }, o?: CallOptions): Promise<WorkspaceMemberPage>;
}

export function workspaceClient(send: Send): WorkspaceApi {
  return {
    get: (o) => send({ method: 'GET', path: '/v1/workspace', opts: o }),
    members: (input, o) => send({ method: 'GET', path: `/v1/workspace/members${qs({ kind: input.kind, query: input.query, limit: input.limit, cursor: input.cursor })}`, opts: o }),
  };
}
