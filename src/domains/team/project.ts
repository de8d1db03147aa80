// Owns the model-visible team projections (distinct from the DTOs) and the TypeBox schemas that describe exactly them.
import { Type, type Static } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { COMPACT_TIME_PATTERN, authorLabel, compactTime } from '../../shared/compact.js';
import type { TeamDto, TeamMemberDto } from './contract.js';

/**
 * `id` for get/update/members, `revision` for update; the creator as `name (kind)` (no team call takes it back; the
 * creator and the owner may change the team); description only when set; createdAt dropped; compact time.
 */
export const TeamView = Strict({
  id: Type.String(),
  handle: Type.String(),
  displayName: Type.String(),
  createdBy: Type.String({ description: 'name (kind).' }),
  revision: Type.Integer({ minimum: 0 }),
  updatedAt: Type.String({ pattern: COMPACT_TIME_PATTERN }),
  description: Type.Optional(Type.String()),
});
export type TeamView = Static<typeof TeamView>;

/** A team in a list: the same minus createdBy and updatedAt (no later call takes either; `team get` shows both). */
export const TeamListItem = Type.Omit(TeamView, ['createdBy', 'updatedAt'], { additionalProperties: false });
export type TeamListItem = Static<typeof TeamListItem>;

/** `memberId` is what remove-member (and task assign) take, as in `workspace members`; addedAt dropped (no call takes a time). */
export const TeamMemberView = Strict({ memberId: Type.String(), name: Type.String(), kind: Type.Union([Type.Literal('human'), Type.Literal('agent')]) });
export type TeamMemberView = Static<typeof TeamMemberView>;

export function projectTeam(t: TeamDto): TeamView {
  const v: TeamView = { id: t.id, handle: t.handle, displayName: t.displayName, createdBy: authorLabel(t.creator), revision: t.revision, updatedAt: compactTime(t.updatedAt) };
  if (t.description !== '') v.description = t.description;
  return v;
}

export function projectTeamListItem(t: TeamDto): TeamListItem {
  const { createdBy: _by, updatedAt: _at, ...item } = projectTeam(t);
  return item;
}

export function projectMember(m: TeamMemberDto): TeamMemberView {
  return { memberId: m.memberId, name: m.name, kind: m.kind };
}
