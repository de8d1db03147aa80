// Owns the model-visible project projection (distinct from the DTO) and the TypeBox schema that describes exactly it.
import { Type, type Static } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { COMPACT_TIME_PATTERN, compactTime } from '../../shared/compact.js';
import { ProjectStatus, type ProjectDto } from './contract.js';

/** `id` for get/update/archive, `revision` for update; description only when set; createdAt dropped; compact time. */
export const ProjectView = Strict({
  id: Type.String(),
  name: Type.String(),
  status: ProjectStatus,
  createdBy: Type.String(),
  revision: Type.Integer({ minimum: 0 }),
  updatedAt: Type.String({ pattern: COMPACT_TIME_PATTERN }),
  description: Type.Optional(Type.String()),
});
export type ProjectView = Static<typeof ProjectView>;

export function projectProject(p: ProjectDto): ProjectView {
  const v: ProjectView = { id: p.id, name: p.name, status: p.status, createdBy: p.createdBy, revision: p.revision, updatedAt: compactTime(p.updatedAt) };
  if (p.description !== '') v.description = p.description;
  return v;
}
