// Owns the server route contract a domain declares: method, path, strict body schema, allowed query names, and the call on its own service.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TSchema } from '@sinclair/typebox';
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

/** A `limit` query parameter as a number (range checked by the pagination machinery). */
export function limitOf(q: Readonly<Record<string, string>>): number | undefined {
  const v = q.limit;
  if (v === undefined) return undefined;
  if (!/^[0-9]{1,6}$/.test(v)) throw new AppError('validation_failed', 'limit must be an integer from 1 to 100');
  return Number(v);
}

/** camelCase → snake_case, for the legacy request aliases. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
