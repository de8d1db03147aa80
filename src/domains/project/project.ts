// Owns the typed projection from project DTOs to model-visible output: only the schema's canonical fields survive.
import type { ProjectDto } from './contract.js';

export function projectProject(p: ProjectDto): ProjectDto {
  return { id: p.id, name: p.name, description: p.description, status: p.status, createdBy: p.createdBy, revision: p.revision, createdAt: p.createdAt, updatedAt: p.updatedAt };
}
