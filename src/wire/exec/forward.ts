// Owns the Extension forwarder of the Exec route: a validated call to an Extension action of the token's RuntimeCatalog
// goes to the server's `/runtime/ext` with the pins of that catalog; the answer is checked against the pinned output
// schema and budgeted like a built-in's.
import type { ActionDescriptor, DescriptorCatalog, RuntimeCatalog } from '../../catalog/types.js';
import { isErrorCode } from '../../shared/errors.js';
import { budgetSuccess } from './budget.js';
import { errorEnvelope, type ErrorEnvelope } from './envelope.js';
import type { DescriptorValidator } from './validator.js';

export interface ExtensionCallPins {
  extension: string;
  action: string;
  definitionDigest: string;
  catalogVersion: string;
  input: unknown;
}
export type ExtensionOutcome = { outcome: 'ok'; data: unknown } | { outcome: 'failed'; error: { code: string; message: string; hint?: string; next?: string } };
/** Sends one pinned call to the server as the token's agent. */
export type ExtensionForwarder = (call: ExtensionCallPins, signal: AbortSignal) => Promise<ExtensionOutcome>;

/** The pins for `domain` when it is an Extension of this catalog. */
export function extensionPins(rc: RuntimeCatalog, domain: string): { digest: string; catalogVersion: string } | undefined {
  const digest = rc.extensions?.digests.get(domain);
  return digest && rc.extensions ? { digest, catalogVersion: rc.extensions.catalogVersion } : undefined;
}

/**
 * Forwards and shapes the answer: ok data must match the pinned output schema (else `internal`; a provider body never
 * passes through), a typed failure keeps its code (closed table), message, hint and next.
 */
export async function forwardExtension(args: { forward: ExtensionForwarder; descriptor: ActionDescriptor; pins: { digest: string; catalogVersion: string }; input: unknown; signal: AbortSignal; validator: DescriptorValidator; catalog: DescriptorCatalog }): Promise<{ ok: true; body: string } | { ok: false; envelope: ErrorEnvelope }> {
  const { descriptor: d } = args;
  // Security invariant: the digest and catalog version come from the authorization's immutable catalog, never the request.
  const out = await args.forward({ extension: d.domain, action: d.action, definitionDigest: args.pins.digest, catalogVersion: args.pins.catalogVersion, input: args.input }, args.signal);
  if (out.outcome === 'failed') {
    const e = out.error;
    if (!isErrorCode(e.code) || e.code === 'internal') return { ok: false, envelope: errorEnvelope('internal', 'internal error') };
    return { ok: false, envelope: errorEnvelope(e.code, String(e.message), { ...(e.hint ? { hint: String(e.hint) } : {}), ...(e.next ? { next: String(e.next) } : {}) }) };
  }
  if (!args.validator.validate(d.output, out.data).ok) return { ok: false, envelope: errorEnvelope('internal', 'internal error') };
  return budgetSuccess({ descriptor: d, row: undefined, catalog: args.catalog, result: { data: out.data }, idempotencyKey: undefined, input: args.input });
}
