// Owns the typed projection from the profile DTO to model-visible output: only the schema's canonical fields survive.
import type { ProfileDto } from './contract.js';

export function projectProfile(p: ProfileDto): ProfileDto {
  return { memberId: p.memberId, name: p.name, kind: p.kind, displayName: p.displayName, bio: p.bio, status: p.status, revision: p.revision, updatedAt: p.updatedAt };
}
