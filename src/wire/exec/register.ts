// Owns registerJson: the typed adapter from a validated request (ActionScopedJson) to one concrete handler and its ActionResult.
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { ActionHandler, ActionResult } from './action.js';
import type { Clock } from '../../shared/clock.js';
import type { ActionDescriptor } from '../../catalog/types.js';
import type { ServerApi } from '../../server-client/api.js';
import { AppError } from '../../shared/errors.js';

/** A validated request scoped to the token's immutable authorization. */
export interface ActionScopedJson<I> {
  readonly input: I;
  /** The authorized server and agent from the token, never from the body. */
  readonly serverId: string;
  readonly agentId: string;
  /** Aborts when the logical authorization is revoked. */
  readonly signal: AbortSignal;
  /** The resolved idempotency selector of a mutation. */
  readonly idempotencyKey: string | undefined;
}

/** Daemon-local services by key (e.g. `agents`: the profile index), for domains the daemon serves itself. */
export type LocalServices = Readonly<Record<string, unknown>>;

export interface RegisteredAction {
  readonly descriptor: ActionDescriptor;
  /** Calls the handler with `api[apiKey]` only (the whole api for an action without a group, e.g. a test probe). */
  invoke(req: ActionScopedJson<unknown>, api: ServerApi, locals?: LocalServices): Promise<ActionResult<unknown>>;
}

/**
 * Binds a typed handler to its descriptor. The caller has already validated `req.input` against this descriptor's
 * input schema. Output that fails its own schema is our bug: it becomes `internal`, never a model-visible payload.
 */
export function registerJson<I extends TSchema, O extends TSchema>(descriptor: ActionDescriptor<I, O>, handler: ActionHandler<Static<I>, Static<O>, any>, apiKey: string | undefined, clock: Clock, local = false): RegisteredAction {
  return {
    descriptor: descriptor as unknown as ActionDescriptor,
    async invoke(req, api, locals) {
      const scoped = apiKey === undefined ? api : local ? locals?.[apiKey] : (api as unknown as Record<string, unknown>)[apiKey];
      if (scoped === undefined) throw new AppError('not_found', `action ${descriptor.domain} ${descriptor.action} is not available in this daemon`);
      const result = await handler(req.input as Static<I>, { api: scoped, clock, signal: req.signal, idempotencyKey: req.idempotencyKey });
      if (!Value.Check(descriptor.output, result.data)) throw new AppError('internal', 'internal error');
      return result;
    },
  };
}
