// Owns the typed projections from workspace DTOs to model-visible output: only the schema's canonical fields survive.
import type { WorkspaceDto, WorkspaceMemberDto } from './contract.js';

export function projectWorkspace(w: WorkspaceDto): WorkspaceDto {
  const c = w.counts;
  return { id: w.id, name: w.name, counts: { members: c.members, humans: c.humans, agents: c.agents, channels: c.channels, tasks: c.tasks, projects: c.projects, teams: c.teams } };
}

export function projectMember(m: WorkspaceMemberDto): WorkspaceMemberDto {
  return { memberId: m.memberId, name: m.name, kind: m.kind, role: m.role, joinedAt: m.joinedAt };
}
