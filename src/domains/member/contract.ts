// Owns the `member` domain contract: member DTOs, bootstrap/agent results, request bodies and their bounds.
import { Type } from '@sinclair/typebox';

export type MemberKind = 'human' | 'agent';
import type { TextBound } from '../../shared/bounds.js';

/** A member's display name in characters and serialized JSON bytes (the one place; server and daemon check it). */
export const MEMBER_NAME = { field: 'name', min: 1, chars: 100, bytes: 400 } as const satisfies TextBound;
export const NAME_MAX = MEMBER_NAME.chars;

export interface MemberDto {
  id: string;
  name: string;
  kind: MemberKind;
  role: 'owner' | 'member';
  createdAt: string;
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
