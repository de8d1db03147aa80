// Owns the shared TypeBox building blocks of Exec descriptors: selectors, ids, paging fields and the compact DTO projections.
import { Type, type TObject, type TProperties } from '@sinclair/typebox';

/** The bounded selector format for requestId / idempotencyKey (spec: malformed/oversized selectors are rejected). */
export const SELECTOR_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';
/** Resource ids are opaque, URL-safe and bounded. */
export const ID_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';

export const Id = (description: string) => Type.String({ pattern: ID_PATTERN, description });
export const Selector = (description: string) => Type.String({ pattern: SELECTOR_PATTERN, description });

/** A strict object: unknown fields are validation errors (additionalProperties:false). */
export function Strict<T extends TProperties>(props: T, description?: string): TObject<T> {
  return Type.Object(props, description ? { additionalProperties: false, description } : { additionalProperties: false });
}

/** The optional idempotency selectors every mutation accepts in its body. */
export const mutationSelectors = {
  requestId: Type.Optional(Selector('Caller-chosen request id; same value as idempotencyKey if both are given.')),
  idempotencyKey: Type.Optional(Selector('Idempotency key forwarded to the server; a retry with the same key never applies twice.')),
};

export const Limit = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Page size, default 20, max 100.' }));
export const Cursor = Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Opaque nextCursor from the previous page.' }));
export const HasMore = Type.Boolean({ description: 'True when another page exists.' });
export const NextCursor = Type.Optional(Type.String({ description: 'Present only when another page exists.' }));

export const Timestamp = Type.String({ description: 'ISO-8601 timestamp.' });

export const TaskStatus = Type.Union([Type.Literal('open'), Type.Literal('in_progress'), Type.Literal('blocked'), Type.Literal('done'), Type.Literal('canceled')]);

export const Task = Strict({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  status: TaskStatus,
  assigneeId: Type.Union([Type.String(), Type.Null()]),
  createdBy: Type.String(),
  blockedReason: Type.Union([Type.String(), Type.Null()]),
  revision: Type.Integer({ minimum: 0 }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const TaskComment = Strict({
  id: Type.String(),
  taskId: Type.String(),
  authorId: Type.String(),
  body: Type.String(),
  createdAt: Timestamp,
});

export const ReviewVerdict = Type.Union([Type.Literal('approve'), Type.Literal('request_changes'), Type.Literal('comment')]);
export const ReviewStatus = Type.Union([Type.Literal('open'), Type.Literal('resolved')]);

export const Review = Strict({
  id: Type.String(),
  target: Type.String(),
  authorId: Type.String(),
  verdict: ReviewVerdict,
  body: Type.String(),
  status: ReviewStatus,
  revision: Type.Integer({ minimum: 0 }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** Exact review thread targets: task:<id> or thread:<channelId>/<rootMessageId>. */
export const ReviewTarget = Type.String({
  pattern: '^(task:[A-Za-z0-9._:-]{1,128}|thread:[A-Za-z0-9._-]{1,128}/[A-Za-z0-9._:-]{1,128})$',
  description: 'Exact thread target: task:<taskId> or thread:<channelId>/<rootMessageId>.',
});
