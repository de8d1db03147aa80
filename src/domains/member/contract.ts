// Owns the `member` domain contract: member DTOs, bootstrap/agent results, their bounds, and the member server calls.
import { Type } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { endpoints } from '../../shared/endpoint.js';

import type { MemberKind } from '../../server/context.js';
export type { MemberKind };
import type { TextBound } from '../../shared/bounds.js';

/** A member's display name in characters and serialized JSON bytes (the one place; server and daemon check it). */
export const MEMBER_NAME = { field: 'name', min: 1, chars: 100, bytes: 400 } as const satisfies TextBound;
export const NAME_MAX = MEMBER_NAME.chars;
/** Current members a workspace holds at most (Humans and agents): the member list and every directory stay bounded. */
export const MEMBERS_MAX = 10_000;

export interface MemberDto {
  id: string;
  name: string;
  kind: MemberKind;
  role: MemberRole;
  createdAt: string;
}

export type MemberRole = 'owner' | 'admin' | 'member';
/** Invites expire after this long (default) and are used at most once. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The longest expiry an invite may be given. */
export const INVITE_TTL_MAX_MS = 30 * 24 * 60 * 60 * 1000;
/** Open (unused, unrevoked, unexpired) invites one member holds at most. */
export const INVITES_OPEN_MAX = 100;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `--expires` grammar, one home for the CLI and the server: a whole number with m, h or d, from 1m up to 30d. */
export function parseInviteExpiry(v: string): number | string {
  const m = /^([1-9][0-9]{0,5})([mhd])$/.exec(v);
  const ms = m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : NaN;
  if (!(ms <= INVITE_TTL_MAX_MS)) return `expires must be a whole number of minutes, hours or days (e.g. 30m, 24h, 7d), at most 30d; got ${JSON.stringify(v.slice(0, 20))}`;
  return ms;
}

export type InviteStatus = 'open' | 'used' | 'revoked' | 'expired';
/** An invite as `member invite ls` shows it: never its code or the code's hash. */
export interface InviteDto {
  id: string;
  name: string;
  role: 'member' | 'admin';
  status: InviteStatus;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
}
export interface InvitePage {
  invites: InviteDto[];
  hasMore: boolean;
  nextCursor?: string;
}

export interface InviteCreated {
  inviteId: string;
  /** The one-time code; shown once, only its keyed hash is stored. */
  code: string;
  name: string;
  role: 'member' | 'admin';
  expiresAt: string;
}

export interface Joined {
  serverId: string;
  workspaceId: string;
  member: MemberDto;
  /** The new member's own server credential. */
  credential: string;
}

export interface BootstrapResult {
  serverId: string;
  workspaceId: string;
  owner: MemberDto;
  /** The owner's server credential; returned only when the owner is first created. */
  ownerCredential?: string;
  created: boolean;
}

export interface AgentCreated {
  agent: MemberDto;
  /** The agent's own server credential; never model-visible. */
  credential: string;
}

const strict = { additionalProperties: false } as const;
export const BootstrapBody = Type.Object({ ownerName: Type.Optional(Type.String({ minLength: 1, maxLength: NAME_MAX })) }, strict);
export const JoinBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 200 }) }, strict);
const Name = Strict({ name: Type.String({ minLength: 1, maxLength: NAME_MAX }) });
const Role = Type.Union([Type.Literal('member'), Type.Literal('admin')]);
const Member = Type.Unsafe<MemberDto>();

/** The member server calls: each one is a route on the server and a method of the daemon's `api.members`. Bootstrap and join (invite code) are the server's account routes. */
export const MEMBER = endpoints({
  me: { method: 'GET', path: '/v1/me', output: Member },
  list: { method: 'GET', path: '/v1/members', output: Type.Unsafe<MemberDto[]>() },
  /** Owner or admin. */
  createAgent: { method: 'POST', path: '/v1/agents', body: Name, output: Type.Unsafe<AgentCreated>() },
  /** An admin, or the Human who created the agent. */
  renameAgent: { method: 'POST', path: '/v1/agents/{memberId}/rename', body: Name, output: Member },
  /** Owner or admin. */
  invite: { method: 'POST', path: '/v1/invites', body: Strict({ name: Type.String({ minLength: 1, maxLength: NAME_MAX }), role: Type.Optional(Role), expires: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })) }), output: Type.Unsafe<InviteCreated>() },
  /** Owner or admin: invites newest first, without their codes. */
  invites: { method: 'GET', path: '/v1/invites', query: Type.Object({ limit: Type.Optional(Type.Integer()), cursor: Type.Optional(Type.String()) }), output: Type.Unsafe<InvitePage>() },
  /** Owner or admin (an admin invite: the owner). */
  revokeInvite: { method: 'POST', path: '/v1/invites/{inviteId}/revoke', output: Type.Unsafe<InviteDto>() },
  /** Owner or admin: the member (and a Human's agents) can no longer authenticate. */
  remove: { method: 'POST', path: '/v1/members/{memberId}/removal', output: Type.Unsafe<{ removed: string[] }>() },
  /** Owner only: a person's role; a demoted admin's open invites are revoked. */
  setRole: { method: 'POST', path: '/v1/members/{memberId}/role', body: Strict({ role: Role }), output: Member },
});

// The server machinery's account routes (bootstrap, join) answer with this domain's shapes (see server-client/api.ts).
declare module '../../server-client/api.js' {
  interface AccountAnswers {
    readonly bootstrap: BootstrapResult;
    readonly join: Joined;
  }
}
