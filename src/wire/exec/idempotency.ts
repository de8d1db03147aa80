// Owns idempotency selectors of mutations (body vs headers, format, conflicts) and the one bounded replay of keyed calls.
import type { CallOptions } from '../../server-client/api.js';
import { serverErrorKind } from '../../shared/failure.js';
import { AppError } from '../../shared/errors.js';
import { SELECTOR_PATTERN, SELECTOR_RE as SELECTOR } from '../../shared/ids.js';
import type { ActionContext } from './action.js';

export interface SelectorSources {
  readonly body: { readonly requestId?: unknown; readonly idempotencyKey?: unknown };
  /** Idempotency-Key and X-Request-ID request headers, when the caller sent them. */
  readonly headers: { readonly idempotencyKey?: string | undefined; readonly requestId?: string | undefined };
}

function checked(v: unknown, name: string): string | undefined {
  if (v === undefined) return undefined;
  // Security invariant: selectors are bounded and plain before they reach a header or a receipt.
  if (typeof v !== 'string' || !SELECTOR.test(v)) throw new AppError('invalid_input', `${name} must match ${SELECTOR_PATTERN}`);
  return v;
}

/**
 * The one idempotency key of a mutation, or undefined. Rejects (invalid_input, before dispatch) malformed or oversized
 * selectors, requestId ≠ idempotencyKey in the body, and any disagreement between body and headers.
 */
export function resolveIdempotencyKey(src: SelectorSources): string | undefined {
  const values = [
    checked(src.body.idempotencyKey, 'idempotencyKey'),
    checked(src.body.requestId, 'requestId'),
    checked(src.headers.idempotencyKey, 'the Idempotency-Key header'),
    checked(src.headers.requestId, 'the X-Request-ID header'),
  ].filter((v): v is string => v !== undefined);
  const key = values[0];
  if (values.some((v) => v !== key)) throw new AppError('invalid_input', 'requestId, idempotencyKey and the Idempotency-Key / X-Request-ID headers must agree');
  return key;
}

export { serverErrorKind };

/**
 * Calls the server with the request's signal and key. Only a call with an idempotency key (a server receipt) is
 * replayed, once, after a transient network failure; natural-key calls are never retried.
 */
export async function callServer<T>(ctx: ActionContext, fn: (o: CallOptions) => Promise<T>): Promise<T> {
  const o: CallOptions = ctx.idempotencyKey === undefined ? { signal: ctx.signal } : { signal: ctx.signal, idempotencyKey: ctx.idempotencyKey };
  try {
    return await fn(o);
  } catch (e) {
    if (ctx.idempotencyKey !== undefined && serverErrorKind(e) === 'network' && !ctx.signal.aborted) return await fn(o);
    throw e;
  }
}
