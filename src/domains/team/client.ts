// Owns the daemon's `team` client: `api.teams.*` over the server's team routes.
import { qs, seg, type CallOptions, type Send } from '../../server-client/send.js';
import type { TeamDto, TeamMemberDto, TeamMemberPage, TeamPage } from './contract.js';

export interface TeamApi {
  create(input: { handle: string; displayName: string; description?: string }, o?: CallOptions): Promise<TeamDto>;
  get(teamId: string, o?: CallOptions): Promise<TeamDto>;
  /** Ordered displayName ASC, handle ASC, teamId ASC. */
  list(input: { limit?: number; cursor?: string }, o?: CallOptions): Promise<TeamPage>;
  update(input: { teamId: string; expectedRevision: number; handle?: string; displayName?: string; description?: string }, o?: CallOptions): Promise<TeamDto>;
  addMember(input: { teamId: string; memberId: string }, o?: CallOptions): Promise<{ teamId: string; member: TeamMemberDto }>;
  removeMember(input: { teamId: string; memberId: string }, o?: CallOptions): Promise<{ teamId: string; memberId: string; removed: boolean }>;
  /** Ordered memberId ASC. */
  members(input: { teamId: string; limit?: number; cursor?: string }, o?: CallOptions): Promise<TeamMemberPage>;
}

export function teamClient(send: Send): TeamApi {
  const at = (id: string) => `/v1/teams/${seg(id, 'teamId')}`;
  return {
    create: (input, o) => send({ method: 'POST', path: '/v1/teams', body: input, opts: o }),
    get: (id, o) => send({ method: 'GET', path: at(id), opts: o }),
    list: (input, o) => send({ method: 'GET', path: `/v1/teams${qs({ limit: input.limit, cursor: input.cursor })}`, opts: o }),
    update: ({ teamId, ...rest }, o) => send({ method: 'PATCH', path: at(teamId), body: rest, opts: o }),
    addMember: (input, o) => send({ method: 'POST', path: `${at(input.teamId)}/members`, body: { memberId: input.memberId }, opts: o }),
    removeMember: (input, o) => send({ method: 'POST', path: `${at(input.teamId)}/members/${seg(input.memberId, 'memberId')}/remove`, body: {}, opts: o }),
    members: (input, o) => send({ method: 'GET', path: `${at(input.teamId)}/members${qs({ limit: input.limit, cursor: input.cursor })}`, opts: o }),
  };
}
