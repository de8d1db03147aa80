// Owns the `project` domain descriptors: inputs, outputs, summaries, canonical examples, risk and result policy (no handlers).
import { Type } from '@sinclair/typebox';
import { defineAction } from '../../catalog/descriptors/define.js';
import { Cursor, HasMore, Id, Limit, NextCursor, Strict, mutationSelectors } from '../../catalog/schemas.js';
import { Description, Name, ProjectStatus, QUERY_MAX } from './contract.js';
import { ProjectListItem, ProjectView } from './project.js';

const ProjectId = Id('Project id, e.g. prj223.');
const ProjectOut = Strict({ project: ProjectView });
const Revision = (description: string) => Type.Integer({ minimum: 1, description });

export const projectCreate = defineAction({
  domain: 'project',
  action: 'create',
  summary: 'Create a project.',
  input: Strict({ name: Name, description: Type.Optional(Description), ...mutationSelectors }),
  output: ProjectOut,
  example: { name: 'Website relaunch' },
  risk: 'write',
  resultPolicy: 'mutation',
});

export const projectGet = defineAction({
  domain: 'project',
  action: 'get',
  summary: 'Get one project by id.',
  input: Strict({ projectId: ProjectId }),
  output: ProjectOut,
  example: { projectId: 'prj223' },
  risk: 'read',
  resultPolicy: 'narrow',
});

export const projectList = defineAction({
  domain: 'project',
  action: 'list',
  summary: 'List projects, most recently updated first.',
  input: Strict({
    limit: Limit,
    cursor: Cursor,
    filters: Type.Optional(Strict({ status: Type.Optional(ProjectStatus), query: Type.Optional(Type.String({ minLength: 1, maxLength: QUERY_MAX, description: 'Part of the name, any case.' })) })),
  }),
  output: Strict({ projects: Type.Array(ProjectListItem), hasMore: HasMore, nextCursor: NextCursor }),
  example: { filters: { status: 'active' } },
  risk: 'read',
  resultPolicy: 'cursor',
});

export const projectUpdate = defineAction({
  domain: 'project',
  action: 'update',
  summary: 'Edit name or description (creator or owner); conflict if the revision is stale.',
  input: Strict({ projectId: ProjectId, expectedRevision: Revision('The revision you last read.'), name: Type.Optional(Name), description: Type.Optional(Description), ...mutationSelectors }),
  output: ProjectOut,
  example: { projectId: 'prj223', expectedRevision: 2, name: 'Website relaunch 2027' },
  risk: 'write',
  resultPolicy: 'mutation',
});

function status(action: 'archive' | 'unarchive', summary: string, risk: 'write' | 'destructive') {
  return defineAction({
    domain: 'project',
    action,
    summary,
    input: Strict({ projectId: ProjectId, expectedRevision: Type.Optional(Revision('Fail with conflict unless the project is at this revision.')), ...mutationSelectors }),
    output: ProjectOut,
    example: { projectId: 'prj223' },
    risk,
    resultPolicy: 'mutation',
  });
}

export const projectArchive = status('archive', 'Archive a project (creator or owner); it takes no new tasks.', 'destructive');
export const projectUnarchive = status('unarchive', 'Make an archived project active again (creator or owner).', 'write');

export const PROJECT_DESCRIPTORS = [projectCreate, projectGet, projectList, projectUpdate, projectArchive, projectUnarchive] as const;
