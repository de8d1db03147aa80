// Owns the Exec descriptor contract: ActionDescriptor (data only, no handlers) and the immutable RuntimeCatalog.
import type { Static, TSchema } from '@sinclair/typebox';

export type Risk = 'read' | 'write' | 'destructive';
/** How a result stays within the 64 KiB boundary: cursor-paged reads, bounded reads, narrow reads, or mutations. */
export type ResultPolicy = 'cursor' | 'bounded' | 'narrow' | 'mutation';

/** The risk and result policy of one value of an action's `operation` field (e.g. workflow `plan` list vs create). */
export interface OperationPolicy {
  readonly risk: Risk;
  readonly resultPolicy: ResultPolicy;
}

export interface ActionDescriptor<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  readonly domain: string;
  readonly action: string;
  readonly summary: string;
  readonly input: I;
  readonly output: O;
  /** One canonical example input; a test runs it. */
  readonly example: Static<I>;
  readonly risk: Risk;
  readonly resultPolicy: ResultPolicy;
  /**
   * An action whose input carries an `operation` union: each operation's own risk and result policy, which the budget,
   * receipt and idempotency rules use for a call with that operation; `risk`/`resultPolicy` are then the strongest.
   */
  readonly operations?: Readonly<Record<string, OperationPolicy>>;
}

/** One runtime authorization's immutable catalog: the built-ins plus the verified Extension snapshot. */
export interface RuntimeCatalog {
  readonly version: string;
  /** Keyed `${domain}/${action}`. */
  readonly actions: ReadonlyMap<string, ActionDescriptor>;
  /** The verified Extension snapshot's pins, injected into every forwarded call (never taken from the request). */
  readonly extensions?: ExtensionPins;
  /** Extension domain → its one-line help summary, from its verified (digest-covered) definition. */
  readonly summaries?: ReadonlyMap<string, string>;
}

/** The server Extension catalog version and each Extension's definition digest, as verified at authorization. */
export interface ExtensionPins {
  readonly catalogVersion: string;
  /** Extension name → definition digest. */
  readonly digests: ReadonlyMap<string, string>;
}

/** One row of action-inventory.json: the canonical risk/result policy of a built-in action and its over-budget guidance. */
export interface InventoryRow {
  readonly domain: string;
  readonly action: string;
  readonly risk: Risk;
  readonly resultPolicy: ResultPolicy;
  /** Continuation guidance used when a result exceeds the 64 KiB boundary. */
  readonly hint: string;
  /** The command to continue with. */
  readonly next: string;
  /** Per operation (actions with an `operation` union): its policy and over-budget guidance. */
  readonly operations?: Readonly<Record<string, OperationPolicy & { readonly hint: string; readonly next: string }>>;
}

/** How a receipt selector's resource is read back: that domain's action (`get`, or one with a fixed `operation`). */
export interface ReadBack {
  readonly domain: string;
  readonly action: string;
  readonly operation?: string;
}

/**
 * The part of a product domain the catalog reads: its Exec name, help line, descriptors, inventory rows and receipt
 * selectors. The catalog never imports a domain; the composition root hands it the registry's list.
 */
export interface ExecDomain {
  /** The `agentteam exec <domain>` name. */
  readonly name: string;
  /** One line for `agentteam exec --help`. */
  readonly summary?: string;
  /** The id field its `get` action takes (e.g. `taskId`); allowlisted as a mutation-receipt selector. */
  readonly selector?: string;
  /** More receipt selectors, each read back by one of this domain's actions (with a fixed `operation`). */
  readonly readBack?: Readonly<Record<string, { readonly action: string; readonly operation?: string }>>;
  /** Exec descriptors in help order, and their inventory rows. */
  readonly descriptors?: readonly ActionDescriptor[];
  readonly inventory?: readonly InventoryRow[];
}

/** The built-in descriptors with their inventory rows; data only, no handlers or execution hooks. */
export interface DescriptorCatalog {
  /** Descriptors in help order. */
  readonly actions: readonly ActionDescriptor[];
  /** Keyed `${domain}/${action}`. */
  readonly inventory: ReadonlyMap<string, InventoryRow>;
  find(domain: string, action: string): ActionDescriptor | undefined;
  /** Domain names in help order. */
  domains(): string[];
  /** A domain's one-line help summary. */
  summary(domain: string): string | undefined;
  /** Receipt selector → the action that reads that resource back (allowlisted mutation-receipt selectors). */
  readonly receiptSelectors: Readonly<Record<string, ReadBack>>;
}
