// Owns the `task` Exec actions, one declaration each (help, input, output, example, risk, result policy, over-budget
// guidance, and the server call with its projection): the descriptors, inventory rows and handlers derive from these.
import { Type, type TOptional, type TString } from '@sinclair/typebox';
import { Id, Strict, mutationSelectors } from '../../catalog/schemas.js';
import { applied, execCall, execList, type DeclaredAction } from '../../wire/exec/declare.js';
import { COMMENT_MAX, DESCRIPTION_MAX, REASON_MAX, TASK, TITLE_MAX, TaskStatus, type TaskDto, type TaskTransition } from './contract.js';
import { CommentView, TaskListItem, TaskView, projectComment, projectTask, projectTaskListItem } from './project.js';

const TaskId = Id('Task id, e.g. tsk41342.');
const TaskOut = Strict({ task: TaskView });
const Reason = (description: string) => Type.String({ minLength: 1, maxLength: REASON_MAX, description });
const readBack = applied('agentteam exec task get');
const task = (t: TaskDto) => ({ task: projectTask(t) });
const changed = (t: TaskDto) => ({ selectors: { taskId: t.id }, revision: t.revision });

const create = execCall({
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
  overBudget: readBack,
  call: TASK.create,
  result: task,
  facts: changed,
});

const get = execCall({
  domain: 'task',
  action: 'get',
  summary: 'Get one task by id.',
  input: Strict({ taskId: TaskId }),
  output: TaskOut,
  example: { taskId: 'tsk41342' },
  risk: 'read',
  resultPolicy: 'narrow',
  overBudget: { hint: 'The task is too large to print whole; list tasks to see the fields you need, or read it in the AgentTeam app.', next: 'agentteam exec task list' },
  call: TASK.get,
  result: task,
});

const list = execList({
  domain: 'task',
  action: 'list',
  summary: 'List tasks, newest first, one page at a time.',
  items: 'tasks',
  item: TaskListItem,
  filters: { status: Type.Optional(TaskStatus), assigneeId: Type.Optional(Id('Only tasks assigned to this member.')), projectId: Type.Optional(Id('Only tasks of this project.')) },
  example: { limit: 20, filters: { status: 'open' } },
  overBudget: { hint: 'Request a smaller page with limit, or continue from nextCursor.', next: `agentteam exec task list '{"limit":5}'` },
  call: TASK.list,
  project: projectTaskListItem,
});

const update = execCall({
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
  overBudget: readBack,
  call: TASK.update,
  result: task,
  facts: changed,
});

const assign = execCall({
  domain: 'task',
  action: 'assign',
  summary: 'Assign a task to a member, or unassign with null.',
  input: Strict({ taskId: TaskId, assigneeId: Type.Union([Id('Member id.'), Type.Null()]), ...mutationSelectors }),
  output: TaskOut,
  example: { taskId: 'tsk41342', assigneeId: 'agt214' },
  risk: 'write',
  resultPolicy: 'mutation',
  overBudget: readBack,
  call: TASK.assign,
  result: task,
  facts: changed,
});

/** A lifecycle transition: one `transitions` call with the action's name. */
function transition(action: TaskTransition, summary: string, risk: 'write' | 'destructive', reason: 'optional' | 'required') {
  // Typed as optional for both: the runtime schema of `block` requires it.
  const Why = (reason === 'required' ? Reason('Why the task is blocked.') : Type.Optional(Reason('Optional note kept with the transition.'))) as TOptional<TString>;
  return execCall({
    domain: 'task',
    action,
    summary,
    input: Strict({ taskId: TaskId, reason: Why, ...mutationSelectors }),
    output: TaskOut,
    example: reason === 'required' ? { taskId: 'tsk41342', reason: 'Waiting for the API key' } : { taskId: 'tsk41342' },
    risk,
    resultPolicy: 'mutation',
    overBudget: readBack,
    call: TASK.transition,
    request: (i: { taskId: string; reason?: string }) => (i.reason === undefined ? { taskId: i.taskId, transition: action } : { taskId: i.taskId, transition: action, reason: i.reason }),
    result: task,
    facts: changed,
  });
}

const comment = execCall({
  domain: 'task',
  action: 'comment',
  summary: 'Add a comment to a task.',
  input: Strict({ taskId: TaskId, body: Type.String({ minLength: 1, maxLength: COMMENT_MAX }), ...mutationSelectors }),
  output: Strict({ comment: CommentView }),
  example: { taskId: 'tsk41342', body: 'Draft is in docs/release.md' },
  risk: 'write',
  resultPolicy: 'mutation',
  overBudget: readBack,
  call: TASK.comment,
  result: (c) => ({ comment: projectComment(c) }),
  facts: (c) => ({ selectors: { taskId: c.taskId } }),
});

/** The task actions in help order (lifecycle first). */
export const TASK_ACTIONS: readonly DeclaredAction<any, any>[] = [
  create,
  get,
  list,
  update,
  assign,
  transition('start', 'Start an open or blocked task (in_progress).', 'write', 'optional'),
  transition('block', 'Block an open or in_progress task, with the reason.', 'write', 'required'),
  transition('complete', 'Mark an in_progress task done.', 'write', 'optional'),
  transition('reopen', 'Reopen a done or canceled task.', 'write', 'optional'),
  transition('cancel', 'Cancel an open, in_progress or blocked task.', 'destructive', 'optional'),
  comment,
];
