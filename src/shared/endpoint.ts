// Owns the one declaration of a server call (method, path, query, body, output, client-side bounds) from which both the
// server's route binding (server/http/route.ts bindRoutes) and the daemon's typed client method (server-client/derive.ts
// clientOf) are derived, so the two sides can never disagree on a path, a field or a type.
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { TextBound } from './bounds.js';

type ParamNames<P extends string> = P extends `${string}{${infer K}}${infer R}` ? K | ParamNames<R> : never;
/** `/v1/tasks/{taskId}/comments` → `{ taskId: string }`. */
export type PathParams<P extends string> = { [K in ParamNames<P>]: string };
type Part<S> = S extends TObject ? Static<S> : unknown;

export interface Endpoint<P extends string = string, Q extends TObject | undefined = TObject | undefined, B extends TObject | undefined = TObject | undefined, O extends TSchema = TSchema> {
  /** The name of its client method and of the service method its route calls (set by `endpoints`). */
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PATCH';
  /** Path parameters in braces; each must match the id grammar (or the route's paramPatterns). */
  readonly path: P;
  /** Query parameters: their names are the allowlist; an Integer one is decoded as a number (e.g. `limit`). */
  readonly query?: Q;
  /** The strict JSON body: the input's fields that are neither path nor query parameters. */
  readonly body?: B;
  /** What the server answers (a DTO or a page); a `Type.Unsafe<T>()` where only the TypeScript type is declared. */
  readonly output: O;
  /** Text bounds the client checks before sending (in serialized bytes), by input field; the server checks them too. */
  readonly bounds?: Readonly<Record<string, TextBound>>;
}

/** What a call takes: its path parameters, query parameters and body fields as one object. */
export type EndpointInput<E> = E extends Endpoint<infer P, infer Q, infer B, TSchema> ? PathParams<P> & Part<Q> & Part<B> : never;
export type EndpointOutput<E> = E extends Endpoint<string, TObject | undefined, TObject | undefined, infer O> ? Static<O> : never;

type Decl<P extends string, Q, B, O> = { method: 'GET' | 'POST' | 'PATCH'; path: P; query?: Q; body?: B; output: O; bounds?: Readonly<Record<string, TextBound>> };
type Named<M> = { readonly [K in keyof M]: M[K] extends Decl<infer P, infer Q, infer B, infer O> ? Endpoint<P, Q extends TObject ? Q : undefined, B extends TObject ? B : undefined, O extends TSchema ? O : never> : never };

/** A domain's server calls, keyed by the client/service method name each one becomes. */
export function endpoints<const M extends Record<string, Decl<string, TObject | undefined, TObject | undefined, TSchema>>>(m: M): Named<M> {
  return Object.fromEntries(Object.entries(m).map(([name, e]) => [name, Object.freeze({ ...e, name })])) as unknown as Named<M>;
}

/** The names of an endpoint's path parameters, in path order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]!);
}
