// Owns the daemon's `member` client: `api.members.*` over the server's member routes.
import type { CallOptions, Send } from '../../server-client/send.js';
import type { AgentCreated, InviteCreated, MemberDto } from './contract.js';

export interface MemberApi {
  me(o?: CallOptions): Promise<MemberDto>;
  list(o?: CallOptions): Promise<MemberDto[]>;
  /** Owner-only. */
  createAgent(input: { name: string }, o?: CallOptions): Promise<AgentCreated>;
  /** An admin, or the Human who created the agent. */
  renameAgent(memberId: string, input: { name: string }, o?: CallOptions): Promise<MemberDto>;
  /** Owner or admin. */
  invite(input: { name: string; role?: 'member' | 'admin' }, o?: CallOptions): Promise<InviteCreated>;
  /** Owner or admin: the member (and a Human's agents) can no longer authenticate. */
  remove(memberId: string, o?: CallOptions): Promise<{ removed: string[] }>;
}

export function memberClient(send: Send): MemberApi {
  return {
    me: (o) => send({ method: 'GET', path: '/v1/me', opts: o }),
    list: (o) => send({ method: 'GET', path: '/v1/members', opts: o }),
    createAgent: (input, o) => send({ method: 'POST', path: '/v1/agents', body: input, opts: o }),
    renameAgent: (memberId, input, o) => send({ method: 'POST', path: `/v1/agents/${encodeURIComponent(memberId)}/rename`, body: input, opts: o }),
    invite: (input, o) => send({ method: 'POST', path: '/v1/invites', body: input, opts: o }),
    remove: (memberId, o) => send({ method: 'POST', path: `/v1/members/${encodeURIComponent(memberId)}/removal`, opts: o }),
  };
}
