// Owns the `workspace` domain contract: Workspace (name, counts) and WorkspaceMember DTOs (TypeBox), filters, their bounds and its server calls.
import { Type, type Static } from '@sinclair/typebox';
import { PageOf, Strict, Timestamp } from '../../catalog/schemas.js';
import { endpoints } from '../../shared/endpoint.js';
import type { ClientOf } from '../../server-client/derive.js';

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

export const WorkspaceMemberPage = PageOf('members', WorkspaceMember);
export type WorkspaceMemberPage = Static<typeof WorkspaceMemberPage>;

/** The workspace server calls: each one is a route on the server and a method of the daemon's `api.workspace`. */
export const WORKSPACE = endpoints({
  get: { method: 'GET', path: '/v1/workspace', output: Workspace },
  /** Ordered name ASC, memberId ASC (binary). limit 1..100, default 20. */
  members: {
    method: 'GET',
    path: '/v1/workspace/members',
    query: Type.Object({ kind: Type.Optional(MemberKind), query: Type.Optional(Type.String()), limit: Type.Optional(Type.Integer()), cursor: Type.Optional(Type.String()) }),
    output: WorkspaceMemberPage,
  },
});
export type WorkspaceApi = ClientOf<typeof WORKSPACE>;
