// Owns the model-visible profile projection (distinct from the DTO) and the TypeBox schema that describes exactly it.
import { Type, type Static } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { COMPACT_TIME_PATTERN, compactTime } from '../../shared/compact.js';
import type { ProfileDto } from './contract.js';

/** `memberId` is what task assign and profile get take; bio, status and updatedAt only when set; compact time. */
export const ProfileView = Strict({
  memberId: Type.String(),
  name: Type.String(),
  kind: Type.Union([Type.Literal('human'), Type.Literal('agent')]),
  displayName: Type.String(),
  revision: Type.Integer({ minimum: 0 }),
  bio: Type.Optional(Type.String()),
  status: Type.Optional(Type.String()),
  updatedAt: Type.Optional(Type.String({ pattern: COMPACT_TIME_PATTERN })),
});
export type ProfileView = Static<typeof ProfileView>;

export function projectProfile(p: ProfileDto): ProfileView {
  const v: ProfileView = { memberId: p.memberId, name: p.name, kind: p.kind, displayName: p.displayName, revision: p.revision };
  if (p.bio !== '') v.bio = p.bio;
  if (p.status !== '') v.status = p.status;
  if (p.updatedAt !== null) v.updatedAt = compactTime(p.updatedAt);
  return v;
}
