// Owns the model-visible workspace projections (distinct from the DTOs) and the TypeBox schemas that describe exactly them.
import { Type, type Static } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { MemberKind, Workspace, type WorkspaceDto, type WorkspaceMemberDto } from './contract.js';

/** The workspace's name and counts; its id is taken by no call, so it is not shown. */
export const WorkspaceView = Type.Omit(Workspace, ['id'], { additionalProperties: false });
export type WorkspaceView = Static<typeof WorkspaceView>;

/** `memberId` is what task assign, team member add and profile get take; `role` only for the owner and admins; joinedAt dropped. */
export const WorkspaceMemberView = Strict({ memberId: Type.String(), name: Type.String(), kind: MemberKind, role: Type.Optional(Type.Union([Type.Literal('owner'), Type.Literal('admin')])) });
export type WorkspaceMemberView = Static<typeof WorkspaceMemberView>;

export function projectWorkspace(w: WorkspaceDto): WorkspaceView {
  const c = w.counts;
  return { name: w.name, counts: { members: c.members, humans: c.humans, agents: c.agents, channels: c.channels, tasks: c.tasks, projects: c.projects, teams: c.teams } };
}

export function projectMember(m: WorkspaceMemberDto): WorkspaceMemberView {
  const v: WorkspaceMemberView = { memberId: m.memberId, name: m.name, kind: m.kind };
  if (m.role !== 'member') v.role = m.role;
  return v;
}
