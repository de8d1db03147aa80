// Owns the typed projections from task DTOs to model-visible output: only the schema's canonical fields survive.
import type { TaskCommentDto, TaskDto } from './contract.js';

export function projectTask(t: TaskDto): TaskDto {
  return {
    id: t.id,
    title: t.title,
    description: t.description,
    status: t.status,
    assigneeId: t.assigneeId,
    projectId: t.projectId,
    createdBy: t.createdBy,
    blockedReason: t.blockedReason,
    revision: t.revision,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

export function projectComment(c: TaskCommentDto): TaskCommentDto {
  return { id: c.id, taskId: c.taskId, authorId: c.authorId, body: c.body, createdAt: c.createdAt };
}
