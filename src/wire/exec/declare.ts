// Owns the one declaration of an Exec action (name, help, input, output, example, risk, result policy, over-budget
// guidance, and the server call it makes) from which its descriptor, its inventory row and its handler are derived.
import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { Cursor, HasMore, Limit, NextCursor, PageInput, PageOf, Strict } from '../../catalog/schemas.js';
import type { ActionDescriptor, InventoryRow, OperationPolicy } from '../../catalog/types.js';
import type { Endpoint, EndpointInput, EndpointOutput } from '../../shared/endpoint.js';
import type { CallOptions } from '../../server-client/send.js';
import { pageFields, type ActionContext, type ActionHandler, type ActionResult, type BoundAction, type MutationFacts } from './action.js';
import { callServer } from './idempotency.js';

/** What the model is told when a result exceeds the 64 KiB boundary: why, and the command to continue with. */
export interface OverBudget {
  readonly hint: string;
  readonly next: string;
}

/** The guidance of a mutation whose result is over budget: it was applied; read it back with `next`. */
export function applied(next: string): OverBudget {
  return { hint: 'The change was applied but the result is too large to print; read it back with the retrieval command instead of repeating the call.', next };
}

/** One action, declared once: everything the catalog, the inventory and the Exec route need. */
export interface DeclaredAction<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  readonly descriptor: ActionDescriptor<I, O>;
  readonly row: InventoryRow;
  readonly bound: BoundAction<I, O>;
}

type Described<I extends TSchema, O extends TSchema> = Omit<ActionDescriptor<I, O>, 'operations'> & {
  readonly overBudget: OverBudget;
  /** Per value of an `operation` field: its own risk, result policy and over-budget guidance. */
  readonly operations?: Readonly<Record<string, OperationPolicy & OverBudget>>;
};

const SELECTORS = new Set(['requestId', 'idempotencyKey']);
/** The input without the idempotency selectors (those travel as the call's key, never in its body). */
function withoutSelectors(input: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([k, v]) => !SELECTORS.has(k) && v !== undefined));
}

function declared<I extends TSchema, O extends TSchema>(d: Described<I, O>, handler: ActionHandler<Static<I>, Static<O>, any>): DeclaredAction<I, O> {
  const descriptor: ActionDescriptor<I, O> = {
    domain: d.domain,
    action: d.action,
    summary: d.summary,
    input: d.input,
    output: d.output,
    example: d.example,
    risk: d.risk,
    resultPolicy: d.resultPolicy,
    ...(d.operations ? { operations: Object.fromEntries(Object.entries(d.operations).map(([k, o]) => [k, { risk: o.risk, resultPolicy: o.resultPolicy }])) } : {}),
  };
  const row: InventoryRow = { domain: d.domain, action: d.action, risk: d.risk, resultPolicy: d.resultPolicy, hint: d.overBudget.hint, next: d.overBudget.next, ...(d.operations ? { operations: d.operations } : {}) };
  return { descriptor, row, bound: { descriptor, handler } };
}

type Method<E> = (input: EndpointInput<E>, o?: CallOptions) => Promise<EndpointOutput<E>>;
/** Calls `e` through the handler's own domain client (`ctx.api`, bound to the calling agent), with its signal and key. */
export function callEndpoint<E extends Endpoint>(ctx: ActionContext<unknown>, e: E, input: EndpointInput<E>): Promise<EndpointOutput<E>> {
  const m = (ctx.api as Record<string, Method<E> | undefined>)[e.name];
  if (!m) throw new Error(`the domain client has no ${e.name} method`);
  return callServer(ctx, (o) => m(input, o));
}

/**
 * An action that is one server call: `request` turns the validated input into the call's input (default: the input
 * without its idempotency selectors), `result` projects the answer, `facts` names what a mutation changed.
 */
export function execCall<I extends TSchema, O extends TSchema, E extends Endpoint>(
  d: Described<I, O> & {
    readonly call: E;
    readonly request?: (input: Static<I>) => EndpointInput<E>;
    readonly result: (out: EndpointOutput<E>, input: Static<I>) => Static<O>;
    readonly facts?: (out: EndpointOutput<E>) => MutationFacts;
  },
): DeclaredAction<I, O> {
  return declared(d, async (input, ctx): Promise<ActionResult<Static<O>>> => {
    const out = await callEndpoint(ctx, d.call, d.request ? d.request(input) : (withoutSelectors(input as object) as EndpointInput<E>));
    const data = d.result(out, input);
    return d.facts ? { data, mutation: d.facts(out) } : { data };
  });
}

type ListDecl<K extends string, T extends TSchema, F extends TProperties, E extends Endpoint> = Omit<Described<TObject, TObject>, 'input' | 'output' | 'risk' | 'resultPolicy' | 'example'> & {
  /** The page's key in the output (`tasks`), its item as the model sees it, and the optional filters. */
  readonly items: K;
  readonly item: T;
  readonly filters?: F;
  /** The filters must be given (e.g. the one thread whose reviews are listed). */
  readonly filtersRequired?: true;
  readonly example: { limit?: number; cursor?: string; filters?: Record<string, unknown> };
  readonly call: E;
  /** The server page's items, projected one by one (the server page keeps the same key). */
  readonly project?: (dto: any) => Static<T>;
  /** Fields the page carries beside its items (e.g. an authors map), placed between the items and hasMore. */
  readonly extra?: TProperties;
  /** Instead of `project`: the whole page's fields besides hasMore/nextCursor (its items and any `extra`). */
  readonly result?: (page: EndpointOutput<E>) => Record<string, unknown>;
};

/**
 * A keyset list action: input `{limit, cursor, filters}`, output `{<items>: […], hasMore, nextCursor?}`, read risk and
 * the cursor result policy; the filters and page fields become the call's query.
 */
export function execList<const K extends string, T extends TSchema, F extends TProperties, E extends Endpoint>(d: ListDecl<K, T, F, E>): DeclaredAction {
  const input = !d.filters ? PageInput() : d.filtersRequired ? Strict({ limit: Limit, cursor: Cursor, filters: Strict(d.filters) }) : PageInput(d.filters);
  const output = (d.extra ? Strict({ [d.items]: Type.Array(d.item), ...d.extra, hasMore: HasMore, nextCursor: NextCursor }) : PageOf(d.items, d.item)) as TObject;
  const described = { ...d, input: input as TSchema, output, risk: 'read', resultPolicy: 'cursor' } as Described<TSchema, TSchema>;
  return declared(described, async (raw, ctx) => {
    const i = raw as { limit?: number; cursor?: string; filters?: Record<string, unknown> };
    const req = withoutSelectors({ ...i.filters, limit: i.limit, cursor: i.cursor }) as EndpointInput<E>;
    const page = (await callEndpoint(ctx, d.call, req)) as Record<string, unknown> & { hasMore: boolean; nextCursor?: string };
    const fields = d.result ? d.result(page as EndpointOutput<E>) : { [d.items]: (page[d.items] as unknown[]).map((x) => d.project!(x)) };
    return { data: { ...fields, ...pageFields(page) } };
  }) as DeclaredAction;
}

/** An action whose handler does more than one server call (or uses a daemon-local service): written by hand. */
export function execAction<I extends TSchema, O extends TSchema, Api = unknown>(d: Described<I, O> & { readonly handle: ActionHandler<Static<I>, Static<O>, Api> }): DeclaredAction<I, O> {
  return declared(d, d.handle);
}

/** A domain's declared actions as the module's descriptors (help order), inventory rows and handlers. */
export function declaredActions(list: readonly DeclaredAction<any, any>[]): { descriptors: ActionDescriptor[]; inventory: InventoryRow[]; actions: BoundAction[] } {
  return { descriptors: list.map((a) => a.descriptor), inventory: list.map((a) => a.row), actions: list.map((a) => a.bound as BoundAction) };
}
