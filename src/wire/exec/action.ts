// Owns the action-handler contract: what a handler gets (ActionContext: its domain's API, a clock, the call's signal and key), what it returns, and the binding.
import type { Static, TSchema } from '@sinclair/typebox';
import type { ActionDescriptor } from '../../catalog/types.js';
import type { Clock } from '../../shared/clock.js';

/** Exactly what a handler uses: its own domain's server API bound to the authorized agent, a clock, the abort signal, the key. */
export interface ActionContext<Api = unknown> {
  readonly api: Api;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  /** The validated selector from body/headers (mutations only); forwarded as CallOptions.idempotencyKey. */
  readonly idempotencyKey: string | undefined;
}

/** Deterministic facts about what a mutation changed, used for a receipt when its result is over budget. */
export interface MutationFacts {
  readonly selectors: Partial<Record<string, string>>;
  readonly revision?: number;
}

export interface ActionResult<O> {
  readonly data: O;
  /** Mutations set this so an over-budget result can still report what was applied. */
  readonly mutation?: MutationFacts;
}

export type ActionHandler<I, O, Api = unknown> = (input: I, ctx: ActionContext<Api>) => Promise<ActionResult<O>>;

/** A descriptor and its concrete handler, typed together; `apiKey` names the ServerApi group the handler receives. */
export interface BoundAction<I extends TSchema = TSchema, O extends TSchema = TSchema, Api = any> {
  readonly descriptor: ActionDescriptor<I, O>;
  readonly handler: ActionHandler<Static<I>, Static<O>, Api>;
  readonly apiKey?: string;
  /** The handler receives the daemon-local service `apiKey` instead of a server API group. */
  readonly local?: boolean;
}

/** hasMore always; nextCursor only when another page exists. */
export function pageFields(p: { hasMore: boolean; nextCursor?: string }): { hasMore: boolean; nextCursor?: string } {
  return p.hasMore && p.nextCursor ? { hasMore: true, nextCursor: p.nextCursor } : { hasMore: p.hasMore };
}

/** `bind` with a domain's API type fixed, so handlers see `ctx.api` as that domain's client: `const bind = binderFor<TaskApi>()`. */
export function binderFor<Api>() {
  return <I extends TSchema, O extends TSchema>(descriptor: ActionDescriptor<I, O>, handler: ActionHandler<Static<I>, Static<O>, Api>): BoundAction<I, O, Api> => ({ descriptor, handler });
}
