// Owns the daemon's `task` client: `api.tasks.*` over the server's task routes.
import { qs, seg, type CallOptions, type Send } from '../../server-client/send.js';
import { checkOptionalText, checkText } from '../../shared/bounds.js';
import { TASK_BOUNDS as B, type TaskCommentDto, type TaskDto, type TaskPage, type TaskStatus, type TaskTransition } from './contract.js';

export interface TaskApi {
  create(input: { title: string; description?: string; assigneeId?: string; projectId?: string }, o?: CallOptions): Promise<TaskDto>;
  get(taskId: string, o?: CallOptions): Promise<TaskDto>;
  /** Ordered createdAt DESC, id DESC. limit 1..100, default 20. */
  list(input: { status?: TaskStatus; assigneeId?: string; projectId?: string; limit?: number; cursor?: string }, o?: CallOptions): Promise<TaskPage>;
  /** Revision-checked: a stale expectedRevision is a conflict. */
  update(input: { taskId: string; expectedRevision: number; title?: string; description?: string; projectId?: string | null }, o?: CallOptions): Promise<TaskDto>;
  assign(input: { taskId: string; assigneeId: string | null }, o?: CallOptions): Promise<TaskDto>;
  transition(input: { taskId: string; transition: TaskTransition; reason?: string }, o?: CallOptions): Promise<TaskDto>;
  comment(input: { taskId: string; body: string }, o?: CallOptions): Promise<TaskCommentDto>;
}

export function taskClient(send: Send): TaskApi {
  const at = (taskId: string) => `/v1/tasks/${seg(taskId, 'taskId')}`;
  return {
    // The server enforces every bound; the daemon checks the same contract first so an oversized field never travels.
    create: async (input, o) => (checkText(input.title, B.title), checkOptionalText(input.description, B.description), send({ method: 'POST', path: '/v1/tasks', body: input, opts: o })),
    get: (taskId, o) => send({ method: 'GET', path: at(taskId), opts: o }),
    list: (input, o) => send({ method: 'GET', path: `/v1/tasks${qs({ status: input.status, assigneeId: input.assigneeId, projectId: input.projectId, limit: input.limit, cursor: input.cursor })}`, opts: o }),
    update: async ({ taskId, ...rest }, o) => (checkOptionalText(rest.title, B.title), checkOptionalText(rest.description, B.description), send({ method: 'PATCH', path: at(taskId), body: rest, opts: o })),
    assign: (input, o) => send({ method: 'POST', path: `${at(input.taskId)}/assignment`, body: { assigneeId: input.assigneeId }, opts: o }),
    transition: async ({ taskId, ...rest }, o) => (checkOptionalText(rest.reason, B.reason), send({ method: 'POST', path: `${at(taskId)}/transitions`, body: rest, opts: o })),
    comment: async (input, o) => (checkText(input.body, B.comment), send({ method: 'POST', path: `${at(input.taskId)}/comments`, body: { body: input.body }, opts: o })),
  };
}
