// Owns the server route contract a domain declares: method, path, strict body schema, allowed query names, and the call on its own service.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TypeGuard, type TSchema } from '@sinclair/typebox';
import type { Endpoint, EndpointInput, EndpointOutput } from '../../shared/endpoint.js';
import { AppError } from '../../shared/errors.js';
import type { Actor } from '../context.js';

export interface RouteContext<B = any> {
  actor: Actor;
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  body: B;
  /** Streamed routes only: the raw request (its body unread) and the response the route may write itself. */
  req?: IncomingMessage;
  res?: ServerResponse;
}

/** Returned by a streamed route that has written its own response. */
export const STREAMED = Symbol('streamed');

/**
 * One member-authenticated route. Every path parameter must match the resource id grammar (checked before the
 * handler); `body` is validated strictly (unknown fields rejected), and the snake_case spelling of each top-level field
 * and query name is accepted as a documented legacy alias.
 */
export interface DomainRoute<Svc = any> {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: TSchema;
  /** Allowed query parameters (canonical names); anything else is validation_failed. */
  query?: readonly string[];
  /** Body cap in bytes when larger than the default 1 MiB. */
  maxBody?: number;
  /**
   * A streamed route: no JSON body is read for it; the handler gets `req`/`res`, reads a raw body or writes the
   * response itself (returning STREAMED), after the same auth, path-parameter and query checks.
   */
  stream?: boolean;
  /**
   * The body in its one canonical spelling, after validation and before the idempotency hash and the handler: two
   * spellings of one request (`tsk242` and `task:tsk242`) then replay one receipt instead of conflicting.
   */
  canonical?: (body: any) => unknown;
  /** Path parameters with their own grammar (a regex source) instead of the id grammar. */
  paramPatterns?: Readonly<Record<string, RegExp>>;
  handle(ctx: RouteContext, svc: Svc): Promise<unknown>;
  /**
   * A provider webhook instead of `handle`: no member credential is asked for; the handler gets the raw request (body
   * unread) and must verify the provider's own signature over the raw body before it acts.
   */
  webhook?(ctx: { params: Readonly<Record<string, string>>; req: IncomingMessage }, svc: Svc): Promise<unknown>;
}

/** camelCase → snake_case, for the legacy request aliases. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A service method an endpoint's derived route calls: the member, then the endpoint's one input object. */
type ServiceCall<E> = (actor: Actor, input: EndpointInput<E>) => Promise<EndpointOutput<E>>;
/** Route options an endpoint does not declare (server-side only). */
export type RouteExtras = Pick<DomainRoute, 'maxBody' | 'canonical' | 'paramPatterns'>;

/** The input an endpoint's route hands its service: query parameters (integers decoded), the body, the path parameters. */
export function inputOf(e: Endpoint, c: RouteContext): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(e.query?.properties ?? {})) {
    const v = c.query[k];
    if (v === undefined) continue;
    if (TypeGuard.IsInteger(s)) {
      if (!/^[0-9]{1,15}$/.test(v)) throw new AppError('validation_failed', k === 'limit' ? 'limit must be an integer from 1 to 100' : `${k} must be a non-negative integer`);
      input[k] = Number(v);
    } else input[k] = v;
  }
  if (c.body && typeof c.body === 'object') Object.assign(input, c.body);
  // Path parameters last: the strict body never names them, and nothing in a body can stand in for one.
  return Object.assign(input, c.params);
}

/**
 * The server routes of a domain's endpoints, derived: each validates its declared query names and strict body and calls
 * the service method of the same name with `(actor, input)`. `bind` overrides the call for a service whose method has
 * another shape; `extras` adds server-only options (body cap, canonical spelling, parameter grammar) per endpoint.
 */
export function bindRoutes<M extends Record<string, Endpoint>, Svc>(
  endpoints: M,
  bind: { [K in keyof M]?: (svc: Svc, actor: Actor, input: EndpointInput<M[K]>) => Promise<unknown> } & { [K in keyof M as K extends keyof Svc ? never : K]-?: (svc: Svc, actor: Actor, input: EndpointInput<M[K]>) => Promise<unknown> } = {} as never,
  extras: { [K in keyof M]?: RouteExtras } = {},
): DomainRoute<Svc>[] {
  return Object.entries(endpoints).map(([name, e]) => {
    const custom = (bind as Record<string, ((svc: Svc, actor: Actor, input: any) => Promise<unknown>) | undefined>)[name];
    const call = custom ?? ((svc: Svc, actor: Actor, input: unknown) => (svc as unknown as Record<string, ServiceCall<Endpoint>>)[name]!.call(svc, actor, input as never));
    const route: DomainRoute<Svc> = { method: e.method, path: e.path, handle: (c, svc) => call(svc, c.actor, inputOf(e, c)), ...extras[name] };
    if (e.body) route.body = e.body;
    if (e.query) route.query = Object.keys(e.query.properties);
    return route;
  });
}
