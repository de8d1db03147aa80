// Owns the model-visible task projections (distinct from the DTOs) and the TypeBox schemas that describe exactly them.
import { Type, type Static } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { COMPACT_TIME_PATTERN, authorLabel, compactTime } from '../../shared/compact.js';
import { TaskStatus, type TaskCommentDto, type TaskDto } from './contract.js';

const Time = Type.String({ pattern: COMPACT_TIME_PATTERN, description: 'UTC, e.g. 20261201T103335Z.' });

/**
 * A task as a model reads it: `id` (for get/update/assign/transitions/comment) and `revision` (update's
 * expectedRevision) always; creator and assignee as `name (kind)`, no member id: the id `task assign` and
 * filters.assigneeId take comes from `workspace members` (or `profile get`), where the member is chosen;
 * description, assignee, project and blocked reason only when set; createdAt dropped (updatedAt is what a reader compares).
 */
export const TaskView = Strict({
  id: Type.String(),
  title: Type.String(),
  status: TaskStatus,
  revision: Type.Integer({ minimum: 0 }),
  createdBy: Type.String({ description: 'name (kind).' }),
  updatedAt: Time,
  description: Type.Optional(Type.String()),
  assignee: Type.Optional(Type.String({ description: 'name (kind); absent: unassigned.' })),
  projectId: Type.Optional(Type.String()),
  blockedReason: Type.Optional(Type.String()),
});
export type TaskView = Static<typeof TaskView>;

/**
 * A task in a list: the same minus createdBy (no later call takes it; `task get` shows it) and updatedAt (the
 * list is already in its order and no later call takes a time; `task get` shows it).
 */
export const TaskListItem = Type.Omit(TaskView, ['createdBy', 'updatedAt'], { additionalProperties: false });
export type TaskListItem = Static<typeof TaskListItem>;

export const CommentView = Strict({ id: Type.String(), taskId: Type.String(), at: Time });
export type CommentView = Static<typeof CommentView>;

export function projectTask(t: TaskDto): TaskView {
  const v: TaskView = { id: t.id, title: t.title, status: t.status, revision: t.revision, createdBy: authorLabel(t.creator), updatedAt: compactTime(t.updatedAt) };
  if (t.description !== '') v.description = t.description;
  if (t.assignee !== null) v.assignee = authorLabel(t.assignee);
  if (t.projectId !== null) v.projectId = t.projectId;
  if (t.blockedReason !== null) v.blockedReason = t.blockedReason;
  return v;
}

export function projectTaskListItem(t: TaskDto): TaskListItem {
  const { createdBy: _by, updatedAt: _at, ...item } = projectTask(t);
  return item;
}

/** The caller wrote the body, so it is not echoed back. */
export function projectComment(c: TaskCommentDto): CommentView {
  return { id: c.id, taskId: c.taskId, at: compactTime(c.createdAt) };
}
