// Owns mutation receipts: building the closed receipt (daemon) and strictly re-projecting received metadata (CLI).
import type { MutationReceiptValue } from '../../catalog/error-schema.js';
import { shellQuote } from '../../catalog/help.js';
import { ID_PATTERN, SELECTOR_PATTERN } from '../../catalog/schemas.js';
import type { DescriptorCatalog } from '../../catalog/types.js';
import { validateValue } from '../../catalog/validate.js';
import type { ErrorMetadataValue } from './envelope.js';

export type { MutationReceiptValue };
type Selectors = Partial<Record<string, string>>;

const ID = new RegExp(ID_PATTERN);
const SELECTOR = new RegExp(SELECTOR_PATTERN);

/** Only the catalog's allowlisted id selectors with a valid id survive. */
function cleanSelectors(catalog: DescriptorCatalog, raw: unknown): Selectors {
  const out: Selectors = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const k of Object.keys(catalog.receiptSelectors)) {
    const v = (raw as Record<string, unknown>)[k];
    if (typeof v === 'string' && ID.test(v)) out[k] = v;
  }
  return out;
}

/**
 * The command that reads the applied result back: the selector's read-back action (its domain's `get`, or an action
 * with a fixed `operation`) with exactly that selector, only when it is a complete, valid input of that action in the
 * catalog. Built from catalog inputs, never copied from the wire.
 */
export function retrievalCommand(catalog: DescriptorCatalog, selectors: Selectors): string | undefined {
  for (const [k, rb] of Object.entries(catalog.receiptSelectors)) {
    const id = selectors[k];
    const get = rb === undefined ? undefined : catalog.find(rb.domain, rb.action);
    if (id === undefined || !rb || !get) continue;
    const input = rb.operation === undefined ? { [k]: id } : { operation: rb.operation, [k]: id };
    if (validateValue(get.input, input).ok) return `agentteam exec ${rb.domain} ${rb.action} ${shellQuote(JSON.stringify(input))}`;
  }
  return undefined;
}

export function buildReceipt(catalog: DescriptorCatalog, facts: { selectors: Selectors; revision?: number } | undefined, idempotencyKey: string | undefined): MutationReceiptValue {
  const selectors = cleanSelectors(catalog, facts?.selectors);
  const receipt: MutationReceiptValue = { selectors: selectors as MutationReceiptValue['selectors'] };
  if (facts?.revision !== undefined && Number.isSafeInteger(facts.revision) && facts.revision >= 0) receipt.revision = facts.revision;
  if (idempotencyKey !== undefined && SELECTOR.test(idempotencyKey)) receipt.idempotencyKey = idempotencyKey;
  const retrieval = retrievalCommand(catalog, selectors);
  if (retrieval) receipt.retrieval = retrieval;
  return receipt;
}

/**
 * Strict re-projection of error metadata received over the wire: only `mutation_applied: true` with a closed receipt
 * is kept; each field is validated, the retrieval command is rebuilt from the catalog, and anything else is dropped.
 */
export function reprojectMetadata(catalog: DescriptorCatalog, raw: unknown, maxBytes = 2048): ErrorMetadataValue | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const m = raw as Record<string, unknown>;
  if (m.mutation_applied !== true) return undefined;
  const r = m.mutation_receipt;
  if (!r || typeof r !== 'object' || Array.isArray(r)) return undefined;
  const rr = r as Record<string, unknown>;
  const facts: { selectors: Selectors; revision?: number } = { selectors: cleanSelectors(catalog, rr.selectors) };
  if (typeof rr.revision === 'number') facts.revision = rr.revision;
  const key = typeof rr.idempotencyKey === 'string' ? rr.idempotencyKey : undefined;
  const metadata: ErrorMetadataValue = { mutation_applied: true, mutation_receipt: buildReceipt(catalog, facts, key) };
  return JSON.stringify(metadata).length <= maxBytes ? metadata : undefined;
}
