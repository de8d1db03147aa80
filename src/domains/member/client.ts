// Owns the daemon's `member` client: `api.members.*` over the server's member routes.
import type { CallOptions, Send } from '../../server-client/send.js';
import { qs } from '../../server-client/send.js';
import type { AgentCreated, InviteCreated, InviteDto, InvitePage, MemberDto } from './contract.js';

export interface MemberApi {
  me(o?: CallOptions): Promise<MemberDto>;
  list(o?: CallOptions): Promise<MemberDto[]>;
  /** Owner-only. */
  createAgent(input: { name: string }, o?: CallOptions): Promise<AgentCreated>;
  /** An admin, or the Human who created the agent. */
  renameAgent(memberId: string, input: { name: string }, o?: CallOptions): Promise<MemberDto>;
  /** Owner or admin. */
  invite(input: { name: string; role?: 'member' | 'admin'; expires?: string }, o?: CallOptions): Promise<InviteCreated>;
  /** Owner or admin: invites newest first, without their codes. */
  invites(input: { limit?: number; cursor?: string }, o?: CallOptions): Promise<InvitePage>;
  /** Owner or admin (an admin invite: the owner). */
  revokeInvite(inviteId: string, o?: CallOptions): Promise<InviteDto>;
  /** Owner only: a person's role; a demoted admin's open invites are revoked. */
  setRole(memberId: string, role: 'admin' | 'member', o?: CallOptions): Promise<MemberDto>;
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
    invites: (input, o) => send({ method: 'GET', path: `/v1/invites${qs({ limit: input.limit, cursor: input.cursor })}`, opts: o }),
    revokeInvite: (inviteId, o) => send({ method: 'POST', path: `/v1/invites/${encodeURIComponent(inviteId)}/revoke`, opts: o }),
    setRole: (memberId, role, o) => send({ method: 'POST', path: `/v1/members/${encodeURIComponent(memberId)}/role`, body: { role }, opts: o }),
    remove: (memberId, o) => send({ method: 'POST', path: `/v1/members/${encodeURIComponent(memberId)}/removal`, opts: o }),
  };
}
