// Owns the typed projections from team DTOs to model-visible output: only the schema's canonical fields survive.
import type { TeamDto, TeamMemberDto } from './contract.js';

export function projectTeam(t: TeamDto): TeamDto {
  return { id: t.id, handle: t.handle, displayName: t.displayName, description: t.description, createdBy: t.createdBy, revision: t.revision, createdAt: t.createdAt, updatedAt: t.updatedAt };
}

export function projectMember(m: TeamMemberDto): TeamMemberDto {
  return { memberId: m.memberId, name: m.name, kind: m.kind, addedAt: m.addedAt };
}
