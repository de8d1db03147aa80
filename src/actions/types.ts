// Owns the action-handler contract: what a handler gets (ActionContext), what it returns (ActionResult), and the typed binding.
import type { Static, TSchema } from '@sinclair/typebox';
import type { ActionDescriptor } from '../catalog/types.js';
import type { ReceiptSelectorKey } from '../catalog/error-schema.js';
import type { ServerApi } from '../server-client/api.js';

/** Exactly what a handler uses: the ServerApi bound to the authorized agent, the request's abort signal, the idempotency key. */
export interface ActionContext {
  readonly api: ServerApi;
  readonly signal: AbortSignal;
  /** The validated selector from body/headers (mutations only); forwarded as CallOptions.idempotencyKey. */
  readonly idempotencyKey: string | undefined;
}

/** Deterministic facts about what a mutation changed, used for a receipt when its result is over budget. */
export interface MutationFacts {
  readonly selectors: Partial<Record<ReceiptSelectorKey, string>>;
  readonly revision?: number;
}

export interface ActionResult<O> {
  readonly data: O;
  /** Mutations set this so an over-budget result can still report what was applied. */
  readonly mutation?: MutationFacts;
}

export type ActionHandler<I, O> = (input: I, ctx: ActionContext) => Promise<ActionResult<O>>;

/** A descriptor and its concrete handler, typed together. */
export interface BoundAction<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  readonly descriptor: ActionDescriptor<I, O>;
  readonly handler: ActionHandler<Static<I>, Static<O>>;
}

export function bind<I extends TSchema, O extends TSchema>(descriptor: ActionDescriptor<I, O>, handler: ActionHandler<Static<I>, Static<O>>): BoundAction<I, O> {
  return { descriptor, handler };
}
