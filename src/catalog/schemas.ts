// Owns the shared TypeBox building blocks of Exec descriptors: selectors, ids, paging fields and the compact DTO projections.
import { Type, type TArray, type TBoolean, type TObject, type TOptional, type TProperties, type TSchema, type TString } from '@sinclair/typebox';
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

/** The shape of every keyset page: its items under the list's own key, hasMore always, nextCursor only when more exist. */
export function PageOf<const K extends string, T extends TSchema>(key: K, item: T): TObject<{ [k in K]: TArray<T> } & { hasMore: TBoolean; nextCursor: TOptional<TString> }> {
  return Strict({ [key]: Type.Array(item), hasMore: HasMore, nextCursor: NextCursor } as { [k in K]: TArray<T> } & { hasMore: TBoolean; nextCursor: TOptional<TString> });
}

/** The input of every Exec list action: page size, cursor, and the list's optional filters. */
export function PageInput(): TObject<{ limit: typeof Limit; cursor: typeof Cursor }>;
export function PageInput<F extends TProperties>(filters: F): TObject<{ limit: typeof Limit; cursor: typeof Cursor; filters: TOptional<TObject<F>> }>;
export function PageInput(filters?: TProperties): TObject {
  return filters ? Strict({ limit: Limit, cursor: Cursor, filters: Type.Optional(Strict(filters)) }) : Strict({ limit: Limit, cursor: Cursor });
}

export const Timestamp = Type.String({ description: 'ISO-8601 timestamp.' });

/** A page's people: each display name's kind once (a name two kinds share is labelled `name (kind)` on its items instead). */
export const Authors = Type.Record(Type.String(), Type.Union([Type.Literal('human'), Type.Literal('agent')]), { description: 'Name → kind.' });
/** A member as other rows name it (server DTOs). */
export const MemberRef = Type.Object({ name: Type.String(), kind: Type.Union([Type.Literal('human'), Type.Literal('agent')]) }, { additionalProperties: false });
