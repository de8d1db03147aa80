// Owns the `project` Exec actions, one declaration each (help, input, output, example, risk, result policy, over-budget
// guidance, and the server call with its projection): the descriptors, inventory rows and handlers derive from these.
import { Type } from '@sinclair/typebox';
import { Id, Strict, mutationSelectors } from '../../catalog/schemas.js';
import { applied, execCall, execList, type DeclaredAction } from '../../wire/exec/declare.js';
import { Description, Name, PROJECT, ProjectStatus, QUERY_MAX, type ProjectDto } from './contract.js';
import { ProjectListItem, ProjectView, projectProject, projectProjectListItem } from './project.js';

const ProjectId = Id('Project id, e.g. prj223.');
const ProjectOut = Strict({ project: ProjectView });
const Revision = (description: string) => Type.Integer({ minimum: 1, description });
const readBack = applied('agentteam exec project get');
const project = (p: ProjectDto) => ({ project: projectProject(p) });
const changed = (p: ProjectDto) => ({ selectors: { projectId: p.id }, revision: p.revision });

const create = execCall({
  domain: 'project',
  action: 'create',
  summary: 'Create a project.',
  input: Strict({ name: Name, description: Type.Optional(Description), ...mutationSelectors }),
  output: ProjectOut,
  example: { name: 'Website relaunch' },
  risk: 'write',
  resultPolicy: 'mutation',
  overBudget: readBack,
  call: PROJECT.create,
  result: project,
  facts: changed,
});

const get = execCall({
  domain: 'project',
  action: 'get',
  summary: 'Get one project by id.',
  input: Strict({ projectId: ProjectId }),
  output: ProjectOut,
  example: { projectId: 'prj223' },
  risk: 'read',
  resultPolicy: 'narrow',
  overBudget: { hint: 'One project is always small; check the projectId.', next: 'agentteam exec project get' },
  call: PROJECT.get,
  result: project,
});

const list = execList({
  domain: 'project',
  action: 'list',
  summary: 'List projects, most recently updated first.',
  items: 'projects',
  item: ProjectListItem,
  filters: { status: Type.Optional(ProjectStatus), query: Type.Optional(Type.String({ minLength: 1, maxLength: QUERY_MAX, description: 'Part of the name, any case.' })) },
  example: { filters: { status: 'active' } },
  overBudget: { hint: 'Request a smaller page with the same filters and cursor.', next: 'agentteam exec project list' },
  call: PROJECT.list,
  project: projectProjectListItem,
});

const update = execCall({
  domain: 'project',
  action: 'update',
  summary: 'Edit name or description (creator or owner); conflict if the revision is stale.',
  input: Strict({ projectId: ProjectId, expectedRevision: Revision('The revision you last read.'), name: Type.Optional(Name), description: Type.Optional(Description), ...mutationSelectors }),
  output: ProjectOut,
  example: { projectId: 'prj223', expectedRevision: 2, name: 'Website relaunch 2027' },
  risk: 'write',
  resultPolicy: 'mutation',
  overBudget: readBack,
  call: PROJECT.update,
  result: project,
  facts: changed,
});

/** archive / unarchive: one call on the project's own path, optionally revision-checked. */
function status(action: 'archive' | 'unarchive', summary: string, risk: 'write' | 'destructive') {
  return execCall({
    domain: 'project',
    action,
    summary,
    input: Strict({ projectId: ProjectId, expectedRevision: Type.Optional(Revision('Fail with conflict unless the project is at this revision.')), ...mutationSelectors }),
    output: ProjectOut,
    example: { projectId: 'prj223' },
    risk,
    resultPolicy: 'mutation',
    overBudget: readBack,
    call: PROJECT[action],
    result: project,
    facts: changed,
  });
}

/** The project actions in help order. */
export const PROJECT_ACTIONS: readonly DeclaredAction<any, any>[] = [
  create,
  get,
  list,
  update,
  status('archive', 'Archive a project (creator or owner); it takes no new tasks.', 'destructive'),
  status('unarchive', 'Make an archived project active again (creator or owner).', 'write'),
];
