// Owns the `workspace` domain contract: Workspace (name, counts) and WorkspaceMember DTOs (TypeBox), filters and their bounds.
import { Type, type Static } from '@sinclair/typebox';
import { Strict, Timestamp } from '../../catalog/schemas.js';
import type { Page } from '../../shared/page.js';

/** A member-name query: a case-folded substring, at most this many characters (≤ 400 serialized bytes). */
export const QUERY_MAX = 100;
export const WORKSPACE_NAME_MAX = 100;

const Count = Type.Integer({ minimum: 0 });
/** Every member reads the workspace and its members; nothing here writes. */
export const Workspace = Strict({
  id: Type.String(),
  name: Type.String({ maxLength: WORKSPACE_NAME_MAX }),
  counts: Strict({ members: Count, humans: Count, agents: Count, channels: Count, tasks: Count, projects: Count, teams: Count }),
});
export type WorkspaceDto = Static<typeof Workspace>;

export const MemberKind = Type.Union([Type.Literal('human'), Type.Literal('agent')]);
export const WorkspaceMember = Strict({
  memberId: Type.String(),
  name: Type.String(),
  kind: MemberKind,
  role: Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')]),
  joinedAt: Timestamp,
});
export type WorkspaceMemberDto = Static<typeof WorkspaceMember>;

export interface WorkspaceMemberPage extends Page {
  members: WorkspaceMemberDto[];
}
