// Owns the typed projections from server DTOs to model-visible output: only the schema's canonical fields survive.
import type { Static } from '@sinclair/typebox';
import type { Review, Task, TaskComment } from '../catalog/schemas.js';
import type { ReviewDto, TaskCommentDto, TaskDto } from '../server-client/api.js';

export function projectTask(t: TaskDto): Static<typeof Task> {
  return {
    id: t.id,
    title: t.title,
    description: t.description,
    status: t.status,
    assigneeId: t.assigneeId,
    createdBy: t.createdBy,
    blockedReason: t.blockedReason,
    revision: t.revision,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

export function projectComment(c: TaskCommentDto): Static<typeof TaskComment> {
  return { id: c.id, taskId: c.taskId, authorId: c.authorId, body: c.body, createdAt: c.createdAt };
}

export function projectReview(r: ReviewDto): Static<typeof Review> {
  return {
    id: r.id,
    target: r.target,
    authorId: r.authorId,
    verdict: r.verdict,
    body: r.body,
    status: r.status,
    revision: r.revision,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** hasMore always; nextCursor only when another page exists. */
export function pageFields(p: { hasMore: boolean; nextCursor?: string }): { hasMore: boolean; nextCursor?: string } {
  return p.hasMore && p.nextCursor ? { hasMore: true, nextCursor: p.nextCursor } : { hasMore: p.hasMore };
}
