// Owns the `task` domain contract: the Task and TaskComment DTOs (TypeBox, used by server, client and Exec output), bodies and bounds.
import { Type, type Static } from '@sinclair/typebox';
import { MemberRef, Strict, Timestamp } from '../../catalog/schemas.js';
import { ID_PATTERN } from '../../shared/ids.js';
import type { Page } from '../../shared/page.js';
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

export interface TaskPage extends Page {
  tasks: TaskDto[];
}

const strict = { additionalProperties: false } as const;
const Id = Type.String({ pattern: ID_PATTERN });
export const CreateTaskBody = Type.Object(
  { title: Type.String({ minLength: 1, maxLength: TITLE_MAX }), description: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX })), assigneeId: Type.Optional(Id), projectId: Type.Optional(Id) },
  strict,
);
export const UpdateTaskBody = Type.Object(
  {
    expectedRevision: Type.Integer({ minimum: 1 }),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: TITLE_MAX })),
    description: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX })),
    projectId: Type.Optional(Type.Union([Id, Type.Null()])),
  },
  strict,
);
export const AssignTaskBody = Type.Object({ assigneeId: Type.Union([Id, Type.Null()]) }, strict);
export const TransitionTaskBody = Type.Object(
  { transition: Type.Union(TASK_TRANSITIONS.map((t) => Type.Literal(t))), reason: Type.Optional(Type.String({ minLength: 1, maxLength: REASON_MAX })) },
  strict,
);
export const CommentTaskBody = Type.Object({ body: Type.String({ minLength: 1, maxLength: COMMENT_MAX }) }, strict);
