// Owns the `task` server routes: create, list (?status&assigneeId&limit&cursor), get, revision-checked update, assign, transitions, comments.
import { limitOf, type DomainRoute } from '../../server/http/route.js';
import { AssignTaskBody, CommentTaskBody, CreateTaskBody, TransitionTaskBody, UpdateTaskBody, type TaskStatus } from './contract.js';
import type { Tasks } from './service.js';

export const ROUTES: readonly DomainRoute<Tasks>[] = [
  { method: 'POST', path: '/v1/tasks', body: CreateTaskBody, handle: (c, s) => s.create(c.actor, c.body) },
  {
    method: 'GET',
    path: '/v1/tasks',
    query: ['status', 'assigneeId', 'projectId', 'limit', 'cursor'],
    handle: (c, s) => s.list(c.actor, { status: c.query.status as TaskStatus | undefined, assigneeId: c.query.assigneeId, projectId: c.query.projectId, limit: limitOf(c.query), cursor: c.query.cursor }),
  },
  { method: 'GET', path: '/v1/tasks/{taskId}', handle: (c, s) => s.get(c.actor, c.params.taskId!) },
  { method: 'PATCH', path: '/v1/tasks/{taskId}', body: UpdateTaskBody, handle: (c, s) => s.update(c.actor, { ...c.body, taskId: c.params.taskId! }) },
  { method: 'POST', path: '/v1/tasks/{taskId}/assignment', body: AssignTaskBody, handle: (c, s) => s.assign(c.actor, { taskId: c.params.taskId!, assigneeId: c.body.assigneeId }) },
  { method: 'POST', path: '/v1/tasks/{taskId}/transitions', body: TransitionTaskBody, handle: (c, s) => s.transition(c.actor, { ...c.body, taskId: c.params.taskId! }) },
  { method: 'POST', path: '/v1/tasks/{taskId}/comments', body: CommentTaskBody, handle: (c, s) => s.comment(c.actor, { taskId: c.params.taskId!, body: c.body.body }) },
];
