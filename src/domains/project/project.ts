// Owns the model-visible project projections (distinct from the DTO) and the TypeBox schemas that describe exactly them.
import { Type, type Static } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { COMPACT_TIME_PATTERN, authorLabel, compactTime } from '../../shared/compact.js';
import type { ProjectDto } from './contract.js';

/** Projects are active until archived: only an archived one says so. */
const Status = Type.Optional(Type.Union([Type.Literal('archived')], { description: 'Absent: active.' }));

/**
 * `id` for get/update/archive, `revision` for update; the creator as `name (kind)` (no project call takes a member
 * id; the creator and the owner may change it); description only when set; createdAt dropped; compact time.
 */
export const ProjectView = Strict({
  id: Type.String(),
  name: Type.String(),
  status: Status,
  createdBy: Type.String({ description: 'name (kind).' }),
  revision: Type.Integer({ minimum: 0 }),
  updatedAt: Type.String({ pattern: COMPACT_TIME_PATTERN }),
  description: Type.Optional(Type.String()),
});
export type ProjectView = Static<typeof ProjectView>;

/** A project in a list: the same minus createdBy and updatedAt (the list is in updatedAt order; `project get` shows both). */
export const ProjectListItem = Type.Omit(ProjectView, ['createdBy', 'updatedAt'], { additionalProperties: false });
export type ProjectListItem = Static<typeof ProjectListItem>;

export function projectProject(p: ProjectDto): ProjectView {
  const v: ProjectView = { id: p.id, name: p.name, ...(p.status === 'archived' ? { status: 'archived' as const } : {}), createdBy: authorLabel(p.creator), revision: p.revision, updatedAt: compactTime(p.updatedAt) };
  if (p.description !== '') v.description = p.description;
  return v;
}

export function projectProjectListItem(p: ProjectDto): ProjectListItem {
  const { createdBy: _by, updatedAt: _at, ...item } = projectProject(p);
  return item;
}
