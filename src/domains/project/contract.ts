// Owns the `project` domain contract: the Project DTO (TypeBox), statuses, request bodies, every bound and who may do what.
import { Type, type Static } from '@sinclair/typebox';
import { MemberRef, Strict, Timestamp } from '../../catalog/schemas.js';
import type { Page } from '../../shared/page.js';

export const NAME_MAX = 200;
export const DESCRIPTION_MAX = 4000;
export const QUERY_MAX = 200;
export const PROJECT_STATUSES = ['active', 'archived'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
export const ProjectStatus = Type.Union(PROJECT_STATUSES.map((s) => Type.Literal(s)));

/**
 * Who may do what: every workspace member reads (get, list) and creates; only the project's creator and the Human
 * owner update, archive and unarchive it (anyone else: denied). Tasks may be filed under an active project only.
 */
export const Project = Strict({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  status: ProjectStatus,
  createdBy: Type.String(),
  /** createdBy's display name and kind, read with the row (one batched lookup per page). */
  creator: MemberRef,
  revision: Type.Integer({ minimum: 0 }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type ProjectDto = Static<typeof Project>;

export interface ProjectPage extends Page {
  projects: ProjectDto[];
}

const strict = { additionalProperties: false } as const;
export const Name = Type.String({ minLength: 1, maxLength: NAME_MAX });
export const Description = Type.String({ maxLength: DESCRIPTION_MAX });
export const CreateProjectBody = Type.Object({ name: Name, description: Type.Optional(Description) }, strict);
export const UpdateProjectBody = Type.Object({ expectedRevision: Type.Integer({ minimum: 1 }), name: Type.Optional(Name), description: Type.Optional(Description) }, strict);
export const ArchiveProjectBody = Type.Object({ expectedRevision: Type.Optional(Type.Integer({ minimum: 1 })) }, strict);
