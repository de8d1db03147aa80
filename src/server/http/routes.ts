// Owns the AgentTeam Server REST route table: each route's auth, body schema, idempotency and the domain call it makes.
//
// | method | path                                   | auth   | body / query                                 | domain call            |
// | ------ | -------------------------------------- | ------ | -------------------------------------------- | ---------------------- |
// | GET    | /v1/server                             | none   |                                              | ServerInfo             |
// | POST   | /v1/admin/bootstrap                    | admin  | {ownerName?}                                 | members.bootstrap      |
// | GET    | /v1/me                                 | member |                                              | members.me             |
// | GET    | /v1/members                            | member |                                              | members.list           |
// | POST   | /v1/agents                             | owner  | {name}                                       | members.createAgent    |
// | GET    | /v1/channels                           | member |                                              | channels.listChannels  |
// | POST   | /v1/channels                           | owner  | {id, name?}                                  | channels.createChannel |
// | POST   | /v1/channels/{channelId}/members       | owner  | {memberId}                                   | channels.addMember     |
// | POST   | /v1/dms                                | member | {memberIds}                                  | channels.openDm        |
// | POST   | /v1/messages                           | member | {target, content, replyTo?, attachmentIds?}  | messages.send          |
// | GET    | /v1/messages                           | member | ?target&limit&cursor                         | messages.list          |
// | POST   | /v1/messages/{messageId}/reactions     | member | {emoji, remove?}                             | messages.react         |
// | GET    | /v1/attachments/{attachmentId}         | member |                                              | messages.getAttachment |
// | POST   | /v1/attachments (streamed body)        | member | ?name&contentType, octet-stream body         | attachments.upload     |
// | GET    | /v1/attachments/{attachmentId}/content | member | (streamed response)                          | attachments.chunks     |
// | POST   | /v1/tasks                              | member | {title, description?, assigneeId?}           | tasks.create           |
// | GET    | /v1/tasks                              | member | ?status&assigneeId&limit&cursor              | tasks.list             |
// | GET    | /v1/tasks/{taskId}                     | member |                                              | tasks.get              |
// | PATCH  | /v1/tasks/{taskId}                     | member | {expectedRevision, title?, description?}     | tasks.update           |
// | POST   | /v1/tasks/{taskId}/assignment          | member | {assigneeId|null}                            | tasks.assign           |
// | POST   | /v1/tasks/{taskId}/transitions         | member | {transition, reason?}                        | tasks.transition       |
// | POST   | /v1/tasks/{taskId}/comments            | member | {body}                                       | tasks.comment          |
// | POST   | /v1/reviews                            | member | {target, verdict, body}                      | reviews.add            |
// | GET    | /v1/reviews                            | member | ?target&status&limit&cursor                  | reviews.list           |
// | GET    | /v1/reviews/{reviewId}                 | member |                                              | reviews.get            |
// | POST   | /v1/reviews/{reviewId}/resolve         | member | {}                                           | reviews.resolve        |
// | POST   | /v1/reviews/{reviewId}/reopen          | member | {}                                           | reviews.reopen         |
//
// Every member POST/PATCH honors Idempotency-Key / X-Request-ID. Query aliases: assignee_id. Body aliases: see schemas.ts.
import { AppError } from '../../shared/errors.js';
import type { ReviewStatus, TaskStatus } from '../../server-client/api.js';
import type { Actor } from '../domains/context.js';
import type { ServerDomains } from '../app.js';
import type { Body, SchemaName } from './schemas.js';

export interface RouteContext<B = unknown> {
  actor: Actor;
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  body: B;
}

export interface RouteDef {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  /** Every table route authenticates a member; /v1/server (none) and /v1/admin/bootstrap (admin) live in handler.ts. */
  auth: 'member';
  body?: SchemaName;
  /** Allowed query parameters (canonical names); anything else is validation_failed. */
  query?: readonly string[];
  /** Body cap in bytes when larger than the default 1 MiB. */
  maxBody?: number;
  handle(ctx: RouteContext<any>, d: ServerDomains): Promise<unknown>;
}

function limitOf(q: Readonly<Record<string, string>>): number | undefined {
  const v = q.limit;
  if (v === undefined) return undefined;
  if (!/^[0-9]{1,6}$/.test(v)) throw new AppError('validation_failed', 'limit must be an integer from 1 to 100');
  return Number(v);
}

export const ROUTES: readonly RouteDef[] = [
  { method: 'GET', path: '/v1/me', auth: 'member', handle: (c, d) => d.members.me(c.actor) },
  { method: 'GET', path: '/v1/members', auth: 'member', handle: (c, d) => d.members.list(c.actor) },
  { method: 'POST', path: '/v1/agents', auth: 'member', body: 'createAgent', handle: (c, d) => d.members.createAgent(c.actor, c.body) },
  { method: 'GET', path: '/v1/channels', auth: 'member', handle: (c, d) => d.channels.listChannels(c.actor) },
  { method: 'POST', path: '/v1/channels', auth: 'member', body: 'createChannel', handle: (c, d) => d.channels.createChannel(c.actor, c.body) },
  {
    method: 'POST',
    path: '/v1/channels/{channelId}/members',
    auth: 'member',
    body: 'addChannelMember',
    handle: async (c: RouteContext<Body<'addChannelMember'>>, d) => {
      await d.channels.addChannelMember(c.actor, c.params.channelId!, c.body.memberId);
      return { channelId: c.params.channelId, memberId: c.body.memberId };
    },
  },
  { method: 'POST', path: '/v1/dms', auth: 'member', body: 'openDm', handle: (c, d) => d.channels.openDm(c.actor, c.body.memberIds) },
  {
    method: 'POST',
    path: '/v1/messages',
    auth: 'member',
    body: 'sendMessage',
    handle: (c: RouteContext<Body<'sendMessage'>>, d) => {
      const input: Parameters<typeof d.messages.send>[1] = { target: c.body.target, content: c.body.content };
      if (c.body.replyTo !== undefined) input.replyTo = c.body.replyTo;
      if (c.body.attachmentIds !== undefined) input.attachmentIds = c.body.attachmentIds;
      return d.messages.send(c.actor, input);
    },
  },
  {
    method: 'GET',
    path: '/v1/messages',
    auth: 'member',
    query: ['target', 'limit', 'cursor'],
    handle: (c, d) => d.messages.list(c.actor, { target: c.query.target ?? '', limit: limitOf(c.query), cursor: c.query.cursor }),
  },
  {
    method: 'POST',
    path: '/v1/messages/{messageId}/reactions',
    auth: 'member',
    body: 'react',
    handle: (c: RouteContext<Body<'react'>>, d) => d.messages.react(c.actor, { messageId: c.params.messageId!, emoji: c.body.emoji, remove: c.body.remove ?? false }),
  },
  {
    method: 'GET',
    path: '/v1/attachments/{attachmentId}',
    auth: 'member',
    handle: (c, d) => d.messages.getAttachment(c.actor, c.params.attachmentId!),
  },
  { method: 'POST', path: '/v1/tasks', auth: 'member', body: 'createTask', handle: (c, d) => d.tasks.create(c.actor, c.body) },
  {
    method: 'GET',
    path: '/v1/tasks',
    auth: 'member',
    query: ['status', 'assigneeId', 'limit', 'cursor'],
    handle: (c, d) =>
      d.tasks.list(c.actor, { status: c.query.status as TaskStatus | undefined, assigneeId: c.query.assigneeId, limit: limitOf(c.query), cursor: c.query.cursor }),
  },
  { method: 'GET', path: '/v1/tasks/{taskId}', auth: 'member', handle: (c, d) => d.tasks.get(c.actor, c.params.taskId!) },
  { method: 'PATCH', path: '/v1/tasks/{taskId}', auth: 'member', body: 'updateTask', handle: (c, d) => d.tasks.update(c.actor, { ...c.body, taskId: c.params.taskId! }) },
  {
    method: 'POST',
    path: '/v1/tasks/{taskId}/assignment',
    auth: 'member',
    body: 'assignTask',
    handle: (c, d) => d.tasks.assign(c.actor, { taskId: c.params.taskId!, assigneeId: c.body.assigneeId }),
  },
  {
    method: 'POST',
    path: '/v1/tasks/{taskId}/transitions',
    auth: 'member',
    body: 'transitionTask',
    handle: (c, d) => d.tasks.transition(c.actor, { ...c.body, taskId: c.params.taskId! }),
  },
  {
    method: 'POST',
    path: '/v1/tasks/{taskId}/comments',
    auth: 'member',
    body: 'commentTask',
    handle: (c, d) => d.tasks.comment(c.actor, { taskId: c.params.taskId!, body: c.body.body }),
  },
  { method: 'POST', path: '/v1/reviews', auth: 'member', body: 'addReview', handle: (c, d) => d.reviews.add(c.actor, c.body) },
  {
    method: 'GET',
    path: '/v1/reviews',
    auth: 'member',
    query: ['target', 'status', 'limit', 'cursor'],
    handle: (c, d) =>
      d.reviews.list(c.actor, { target: c.query.target ?? '', status: c.query.status as ReviewStatus | undefined, limit: limitOf(c.query), cursor: c.query.cursor }),
  },
  { method: 'GET', path: '/v1/reviews/{reviewId}', auth: 'member', handle: (c, d) => d.reviews.get(c.actor, c.params.reviewId!) },
  { method: 'POST', path: '/v1/reviews/{reviewId}/resolve', auth: 'member', body: 'empty', handle: (c, d) => d.reviews.resolve(c.actor, c.params.reviewId!) },
  { method: 'POST', path: '/v1/reviews/{reviewId}/reopen', auth: 'member', body: 'empty', handle: (c, d) => d.reviews.reopen(c.actor, c.params.reviewId!) },
];

export const QUERY_ALIASES: Readonly<Record<string, string>> = { assignee_id: 'assigneeId' };
