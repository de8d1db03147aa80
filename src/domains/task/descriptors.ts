// Owns the `task` domain descriptors: inputs, outputs, summaries, canonical examples, risk and result policy (no handlers).
import { Type } from '@sinclair/typebox';
import { defineAction } from '../../catalog/descriptors/define.js';
import { Cursor, HasMore, Id, Limit, NextCursor, Strict, mutationSelectors } from '../../catalog/schemas.js';
import { COMMENT_MAX, DESCRIPTION_MAX, REASON_MAX, TITLE_MAX, TaskStatus } from './contract.js';
import { CommentView, TaskListItem, TaskView } from './project.js';

const TaskId = Id('Task id, e.g. tsk41342.');
const TaskOut = Strict({ task: TaskView });
const Reason = (description: string) => Type.String({ minLength: 1, maxLength: REASON_MAX, description });

export const taskCreate = defineAction({
  domain: 'task',
  action: 'create',
  summary: 'Create a task, optionally assigned to a member.',
  input: Strict({
    title: Type.String({ minLength: 1, maxLength: TITLE_MAX }),
    description: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX })),
    assigneeId: Type.Optional(Id('Member id of the assignee.')),
    projectId: Type.Optional(Id('Active project to file it under.')),
    ...mutationSelectors,
  }),
  output: TaskOut,
  example: { title: 'Write the release notes' },
  risk: 'write',
  resultPolicy: 'mutation',
});

export const taskGet = defineAction({
  domain: 'task',
  action: 'get',
  summary: 'Get one task by id.',
  input: Strict({ taskId: TaskId }),
  output: TaskOut,
  example: { taskId: 'tsk41342' },
  risk: 'read',
  resultPolicy: 'narrow',
});

export const taskList = defineAction({
  domain: 'task',
  action: 'list',
  summary: 'List tasks, newest first, one page at a time.',
  input: Strict({
    limit: Limit,
    cursor: Cursor,
    filters: Type.Optional(Strict({ status: Type.Optional(TaskStatus), assigneeId: Type.Optional(Id('Only tasks assigned to this member.')), projectId: Type.Optional(Id('Only tasks of this project.')) })),
  }),
  output: Strict({ tasks: Type.Array(TaskListItem), hasMore: HasMore, nextCursor: NextCursor }),
  example: { limit: 20, filters: { status: 'open' } },
  risk: 'read',
  resultPolicy: 'cursor',
});

export const taskUpdate = defineAction({
  domain: 'task',
  action: 'update',
  summary: 'Edit title, description or project; fails with conflict if the revision is stale.',
  input: Strict({
    taskId: TaskId,
    expectedRevision: Type.Integer({ minimum: 1, description: 'The revision you last read.' }),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: TITLE_MAX })),
    description: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX })),
    projectId: Type.Optional(Type.Union([Id('Project id.'), Type.Null()], { description: 'Move to this project; null detaches.' })),
    ...mutationSelectors,
  }),
  output: TaskOut,
  example: { taskId: 'tsk41342', expectedRevision: 3, title: 'Write and publish the release notes' },
  risk: 'write',
  resultPolicy: 'mutation',
});

export const taskAssign = defineAction({
  domain: 'task',
  action: 'assign',
  summary: 'Assign a task to a member, or unassign with null.',
  input: Strict({ taskId: TaskId, assigneeId: Type.Union([Id('Member id.'), Type.Null()]), ...mutationSelectors }),
  output: TaskOut,
  example: { taskId: 'tsk41342', assigneeId: 'agt214' },
  risk: 'write',
  resultPolicy: 'mutation',
});

function transition(action: 'start' | 'complete' | 'reopen' | 'cancel', summary: string, risk: 'write' | 'destructive') {
  return defineAction({
    domain: 'task',
    action,
    summary,
    input: Strict({ taskId: TaskId, reason: Type.Optional(Reason('Optional note kept with the transition.')), ...mutationSelectors }),
    output: TaskOut,
    example: { taskId: 'tsk41342' },
    risk,
    resultPolicy: 'mutation',
  });
}

export const taskStart = transition('start', 'Start an open or blocked task (in_progress).', 'write');
export const taskComplete = transition('complete', 'Mark an in_progress task done.', 'write');
export const taskReopen = transition('reopen', 'Reopen a done or canceled task.', 'write');
export const taskCancel = transition('cancel', 'Cancel an open, in_progress or blocked task.', 'destructive');

export const taskBlock = defineAction({
  domain: 'task',
  action: 'block',
  summary: 'Block an open or in_progress task, with the reason.',
  input: Strict({ taskId: TaskId, reason: Reason('Why the task is blocked.'), ...mutationSelectors }),
  output: TaskOut,
  example: { taskId: 'tsk41342', reason: 'Waiting for the API key' },
  risk: 'write',
  resultPolicy: 'mutation',
});

export const taskComment = defineAction({
  domain: 'task',
  action: 'comment',
  summary: 'Add a comment to a task.',
  input: Strict({ taskId: TaskId, body: Type.String({ minLength: 1, maxLength: COMMENT_MAX }), ...mutationSelectors }),
  output: Strict({ comment: CommentView }),
  example: { taskId: 'tsk41342', body: 'Draft is in docs/release.md' },
  risk: 'write',
  resultPolicy: 'mutation',
});

/** The task domain in help order (lifecycle first). */
export const TASK_DESCRIPTORS = [taskCreate, taskGet, taskList, taskUpdate, taskAssign, taskStart, taskBlock, taskComplete, taskReopen, taskCancel, taskComment] as const;
