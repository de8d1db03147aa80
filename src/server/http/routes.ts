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
// | POST   | /v1/messages                           | member | {target, content, replyTo?, attachments?}    | messages.send          |
// | GET    | /v1/messages                           | member | ?target&limit&cursor                         | messages.list          |
// | POST   | /v1/messages/{messageId}/reactions     | member | {emoji, remove?}                             | messages.react         |
// | GET    | /v1/attachments/{attachmentId}         | member |                                              | messages.getAttachment |
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
// | GET    | /v1/turns                              | agent  | ?after&waitMs                                | turns.read (long poll) |
//
// Every member POST/PATCH honors Idempotency-Key / X-Request-ID. Query aliases: assignee_id. Body aliases: see schemas.ts.
import { AppError } from '../../shared/errors.js';
import type { NewAttachment, ReviewStatus, TaskStatus } from '../../server-client/api.js';
import type { Actor } from '../domains/context.js';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from '../domains/messages.js';
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

const B64_RE = /^[A-Za-z0-9+/]*={0,2}$/;
const MAX_B64 = Math.ceil(MAX_ATTACHMENT_BYTES / 3) * 4;
/** Four base64 attachments at the cap plus room for the rest of the message. */
export const SEND_MAX_BODY = MAX_ATTACHMENTS * MAX_B64 + 1024 * 1024;

function decodeAttachments(list: Body<'sendMessage'>['attachments']): NewAttachment[] | undefined {
  if (list === undefined) return undefined;
  return list.map((a) => {
    if (a.data.length % 4 !== 0 || !B64_RE.test(a.data)) throw new AppError('validation_failed', 'attachment data must be standard padded base64');
    const pad = a.data.endsWith('==') ? 2 : a.data.endsWith('=') ? 1 : 0;
    if ((a.data.length / 4) * 3 - pad > MAX_ATTACHMENT_BYTES) throw new AppError('payload_too_large', `an attachment exceeds ${MAX_ATTACHMENT_BYTES} bytes (10 MiB)`);
    return { name: a.name, contentType: a.contentType, data: Buffer.from(a.data, 'base64') };
  });
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
    maxBody: SEND_MAX_BODY,
    handle: (c: RouteContext<Body<'sendMessage'>>, d) => {
      const input: Parameters<typeof d.messages.send>[1] = { target: c.body.target, content: c.body.content };
      if (c.body.replyTo !== undefined) input.replyTo = c.body.replyTo;
      const atts = decodeAttachments(c.body.attachments);
      if (atts) input.attachments = atts;
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
    handle: async (c, d) => {
      const a = await d.messages.getAttachment(c.actor, c.params.attachmentId!);
      return { id: a.id, name: a.name, contentType: a.contentType, size: a.size, data: a.data.toString('base64') };
    },
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
  {
    method: 'GET',
    path: '/v1/turns',
    auth: 'member',
    query: ['after', 'waitMs'],
    handle: (c, d) => d.turns.read(c.actor, { after: intOf(c.query.after, 'after', 0), waitMs: intOf(c.query.waitMs, 'waitMs', 0) }),
  },
];

function intOf(v: string | undefined, name: string, dflt: number): number {
  if (v === undefined) return dflt;
  if (!/^[0-9]{1,15}$/.test(v)) throw new AppError('validation_failed', `${name} must be a non-negative integer`);
  return Number(v);
}

export const QUERY_ALIASES: Readonly<Record<string, string>> = { assignee_id: 'assigneeId' };
