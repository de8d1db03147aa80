// Owns the `task` domain contract: the Task and TaskComment DTOs (TypeBox, used by server, client and Exec output), bodies and bounds.
import { Type, type Static } from '@sinclair/typebox';
import { MemberRef, PageOf, Strict, Timestamp } from '../../catalog/schemas.js';
import { endpoints } from '../../shared/endpoint.js';
import { ID_PATTERN } from '../../shared/ids.js';
import type { TextBound } from '../../shared/bounds.js';
import { CONTENT } from '../message/contract.js';

/** Every stored task text field, in characters and serialized JSON bytes (the one place; server and daemon check these). */
export const TASK_BOUNDS = {
  title: { field: 'title', min: 1, chars: 200, bytes: 800 },
  description: { field: 'description', min: 0, chars: 12_000, bytes: 12_000 },
  reason: { field: 'reason', min: 1, chars: 2000, bytes: 2000 },
  /** A comment is a message in the task's discussion: the message content bound. */
  comment: { ...CONTENT, field: 'body', min: 1 },
} as const satisfies Record<string, TextBound>;
/** Open tasks (open, in progress, blocked) one member may have created: far above a person's or a planning agent's use. */
export const OPEN_TASKS_PER_MEMBER_MAX = 1000;
export const TITLE_MAX = TASK_BOUNDS.title.chars;
export const DESCRIPTION_MAX = TASK_BOUNDS.description.chars;
export const REASON_MAX = TASK_BOUNDS.reason.chars;
export const COMMENT_MAX = TASK_BOUNDS.comment.chars;

export const TASK_STATUSES = ['open', 'in_progress', 'blocked', 'done', 'canceled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TaskStatus = Type.Union(TASK_STATUSES.map((s) => Type.Literal(s)));

export const TASK_TRANSITIONS = ['start', 'block', 'complete', 'reopen', 'cancel'] as const;
export type TaskTransition = (typeof TASK_TRANSITIONS)[number];

export const Task = Strict({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  status: TaskStatus,
  assigneeId: Type.Union([Type.String(), Type.Null()]),
  projectId: Type.Union([Type.String(), Type.Null()]),
  createdBy: Type.String(),
  /** createdBy's and assigneeId's display names and kinds, read with the row (one batched lookup per page). */
  creator: MemberRef,
  assignee: Type.Union([MemberRef, Type.Null()]),
  blockedReason: Type.Union([Type.String(), Type.Null()]),
  revision: Type.Integer({ minimum: 0 }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type TaskDto = Static<typeof Task>;

export const TaskComment = Strict({
  id: Type.String(),
  taskId: Type.String(),
  authorId: Type.String(),
  body: Type.String(),
  createdAt: Timestamp,
});
export type TaskCommentDto = Static<typeof TaskComment>;

export const TaskPage = PageOf('tasks', Task);
export type TaskPage = Static<typeof TaskPage>;

const Id = Type.String({ pattern: ID_PATTERN });
const Title = Type.String({ minLength: 1, maxLength: TITLE_MAX });
const Description = Type.String({ maxLength: DESCRIPTION_MAX });
const Reason = Type.String({ minLength: 1, maxLength: REASON_MAX });

/** The task server calls: each one is a route on the server and a method of the daemon's `api.tasks`. */
export const TASK = endpoints({
  create: {
    method: 'POST',
    path: '/v1/tasks',
    body: Strict({ title: Title, description: Type.Optional(Description), assigneeId: Type.Optional(Id), projectId: Type.Optional(Id) }),
    output: Task,
    bounds: { title: TASK_BOUNDS.title, description: TASK_BOUNDS.description },
  },
  /** Ordered createdAt DESC, id DESC. limit 1..100, default 20. */
  list: {
    method: 'GET',
    path: '/v1/tasks',
    query: Type.Object({ status: Type.Optional(TaskStatus), assigneeId: Type.Optional(Type.String()), projectId: Type.Optional(Type.String()), limit: Type.Optional(Type.Integer()), cursor: Type.Optional(Type.String()) }),
    output: TaskPage,
  },
  get: { method: 'GET', path: '/v1/tasks/{taskId}', output: Task },
  /** Revision-checked: a stale expectedRevision is a conflict. */
  update: {
    method: 'PATCH',
    path: '/v1/tasks/{taskId}',
    body: Strict({ expectedRevision: Type.Integer({ minimum: 1 }), title: Type.Optional(Title), description: Type.Optional(Description), projectId: Type.Optional(Type.Union([Id, Type.Null()])) }),
    output: Task,
    bounds: { title: TASK_BOUNDS.title, description: TASK_BOUNDS.description },
  },
  assign: { method: 'POST', path: '/v1/tasks/{taskId}/assignment', body: Strict({ assigneeId: Type.Union([Id, Type.Null()]) }), output: Task },
  transition: {
    method: 'POST',
    path: '/v1/tasks/{taskId}/transitions',
    body: Strict({ transition: Type.Union(TASK_TRANSITIONS.map((t) => Type.Literal(t))), reason: Type.Optional(Reason) }),
    output: Task,
    bounds: { reason: TASK_BOUNDS.reason },
  },
  comment: { method: 'POST', path: '/v1/tasks/{taskId}/comments', body: Strict({ body: Type.String({ minLength: 1, maxLength: COMMENT_MAX }) }), output: TaskComment, bounds: { body: TASK_BOUNDS.comment } },
});
