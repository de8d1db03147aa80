// Owns the model-visible team projections (distinct from the DTOs) and the TypeBox schemas that describe exactly them.
import { Type, type Static } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { COMPACT_TIME_PATTERN, compactTime } from '../../shared/compact.js';
import type { TeamDto, TeamMemberDto } from './contract.js';

const Time = Type.String({ pattern: COMPACT_TIME_PATTERN });

/** `id` for get/update/members, `revision` for update; description only when set; createdAt dropped; compact time. */
export const TeamView = Strict({
  id: Type.String(),
  handle: Type.String(),
  displayName: Type.String(),
  createdBy: Type.String(),
  revision: Type.Integer({ minimum: 0 }),
  updatedAt: Time,
  description: Type.Optional(Type.String()),
});
export type TeamView = Static<typeof TeamView>;

/** `memberId` is what member remove (and task assign) take. */
export const TeamMemberView = Strict({ memberId: Type.String(), name: Type.String(), kind: Type.Union([Type.Literal('human'), Type.Literal('agent')]), addedAt: Time });
export type TeamMemberView = Static<typeof TeamMemberView>;

export function projectTeam(t: TeamDto): TeamView {
  const v: TeamView = { id: t.id, handle: t.handle, displayName: t.displayName, createdBy: t.createdBy, revision: t.revision, updatedAt: compactTime(t.updatedAt) };
  if (t.description !== '') v.description = t.description;
  return v;
}

export function projectMember(m: TeamMemberDto): TeamMemberView {
  return { memberId: m.memberId, name: m.name, kind: m.kind, addedAt: compactTime(m.addedAt) };
}
