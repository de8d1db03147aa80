// Owns the shared TypeBox building blocks of Exec descriptors: selectors, ids, paging fields and the compact DTO projections.
import { Type, type TObject, type TProperties } from '@sinclair/typebox';
import { ID_PATTERN, SELECTOR_PATTERN } from '../shared/ids.js';

export { ID_PATTERN, SELECTOR_PATTERN };

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

/** A page's people: each display name's kind once (a name two kinds share is labelled `name (kind)` on its items instead). */
export const Authors = Type.Record(Type.String(), Type.Union([Type.Literal('human'), Type.Literal('agent')]), { description: 'Name → kind.' });
/** A member as other rows name it (server DTOs). */
export const MemberRef = Type.Object({ name: Type.String(), kind: Type.Union([Type.Literal('human'), Type.Literal('agent')]) }, { additionalProperties: false });
