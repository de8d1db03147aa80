// Owns the `workspace` domain descriptors: inputs, outputs, summaries, canonical examples, risk and result policy (no handlers).
import { Type } from '@sinclair/typebox';
import { defineAction } from '../../catalog/descriptors/define.js';
import { Cursor, HasMore, Limit, NextCursor, Strict } from '../../catalog/schemas.js';
import { MemberKind, QUERY_MAX } from './contract.js';
import { WorkspaceMemberView, WorkspaceView } from './project.js';

export const workspaceGet = defineAction({
  domain: 'workspace',
  action: 'get',
  summary: 'Get the workspace: name and counts.',
  input: Strict({}),
  output: Strict({ workspace: WorkspaceView }),
  example: {},
  risk: 'read',
  resultPolicy: 'narrow',
});

export const workspaceMembers = defineAction({
  domain: 'workspace',
  action: 'members',
  summary: 'List workspace members by name, then member id.',
  input: Strict({
    limit: Limit,
    cursor: Cursor,
    filters: Type.Optional(Strict({ kind: Type.Optional(MemberKind), query: Type.Optional(Type.String({ minLength: 1, maxLength: QUERY_MAX, description: 'Part of the name, any case.' })) })),
  }),
  output: Strict({ members: Type.Array(WorkspaceMemberView), hasMore: HasMore, nextCursor: NextCursor }),
  example: { limit: 20, filters: { kind: 'agent' } },
  risk: 'read',
  resultPolicy: 'cursor',
});

export const WORKSPACE_DESCRIPTORS = [workspaceGet, workspaceMembers] as const;
