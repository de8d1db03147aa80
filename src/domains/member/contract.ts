// Owns the `member` domain contract: member DTOs, bootstrap/agent results, request bodies and their bounds.
import { Type } from '@sinclair/typebox';

export type MemberKind = 'human' | 'agent';
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
export const CreateAgentBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: NAME_MAX }) }, strict);
export const InviteBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: NAME_MAX }), role: Type.Optional(Type.Union([Type.Literal('member'), Type.Literal('admin')])) },
  strict,
);
export const JoinBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 200 }) }, strict);
