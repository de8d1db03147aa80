// Owns the `workspace` Exec actions, one declaration each (help, input, output, example, risk, result policy, over-budget
// guidance, and the server call with its projection): the descriptors, inventory rows and handlers derive from these.
import { Type } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { execCall, execList, type DeclaredAction } from '../../wire/exec/declare.js';
import { MemberKind, QUERY_MAX, WORKSPACE } from './contract.js';
import { WorkspaceMemberView, WorkspaceView, projectMember, projectWorkspace } from './project.js';

const get = execCall({
  domain: 'workspace',
  action: 'get',
  summary: 'Get the workspace: name and counts.',
  input: Strict({}),
  output: Strict({ workspace: WorkspaceView }),
  example: {},
  risk: 'read',
  resultPolicy: 'narrow',
  overBudget: { hint: 'The workspace summary is always small; retry once.', next: 'agentteam exec workspace get' },
  call: WORKSPACE.get,
  result: (w) => ({ workspace: projectWorkspace(w) }),
});

const members = execList({
  domain: 'workspace',
  action: 'members',
  summary: 'List workspace members by name, then member id.',
  items: 'members',
  item: WorkspaceMemberView,
  filters: { kind: Type.Optional(MemberKind), query: Type.Optional(Type.String({ minLength: 1, maxLength: QUERY_MAX, description: 'Part of the name, any case.' })) },
  example: { limit: 20, filters: { kind: 'agent' } },
  overBudget: { hint: 'Request a smaller page with the same filters and cursor.', next: 'agentteam exec workspace members' },
  call: WORKSPACE.members,
  project: projectMember,
});

/** The workspace actions in help order. */
export const WORKSPACE_ACTIONS: readonly DeclaredAction<any, any>[] = [get, members];
