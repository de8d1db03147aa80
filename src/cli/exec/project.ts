// Owns the CLI's strict projection of a daemon answer into the printed envelope (bounded, closed metadata only).
import type { DescriptorCatalog } from '../../catalog/types.js';
import { isErrorCode } from '../../shared/errors.js';
import { RESULT_BUDGET_BYTES } from '../../wire/exec/budget.js';
import { bounded, errorEnvelope, type ErrorEnvelope } from '../../wire/exec/envelope.js';
import { readContinuation } from '../../wire/exec/continuation.js';
import { buildReceipt, reprojectMetadata } from '../../wire/exec/receipt.js';
import { forRequest, rowForRequest } from '../../catalog/operations.js';

export type Printed = { ok: true; text: string } | { ok: false; envelope: ErrorEnvelope };

/**
 * Rebuilds the envelope from a daemon response body. Success passes through only within the 64 KiB boundary; an error
 * keeps a known code, bounded strings and re-projected receipt metadata; everything else is dropped.
 */
export function projectAnswer(catalog: DescriptorCatalog, domain: string, action: string, body: string, input?: unknown): Printed {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return { ok: false, envelope: errorEnvelope('internal', 'the daemon returned an unreadable response') };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { ok: false, envelope: errorEnvelope('internal', 'the daemon returned an unreadable response') };
  const o = v as Record<string, unknown>;
  if (o.ok === true && 'data' in o) {
    const text = JSON.stringify({ ok: true, data: o.data });
    if (Buffer.byteLength(text) <= RESULT_BUDGET_BYTES) return { ok: true, text };
    const found = catalog.find(domain, action);
    const d = found && forRequest(found, input);
    const row = found && rowForRequest(found, catalog.inventory.get(`${domain}/${action}`), input);
    if (d && d.risk !== 'read') {
      // The daemon answered ok: the change was applied. Mutation semantics: a closed receipt, never replay advice.
      const receipt = buildReceipt(catalog, { selectors: selectorsOf(catalog, input, o.data) }, selectorOf(input));
      return { ok: false, envelope: errorEnvelope('result_budget_exceeded', `the change was applied but its result exceeds ${RESULT_BUDGET_BYTES} bytes`, { ...(row?.hint ? { hint: row.hint } : {}), metadata: { mutation_applied: true, mutation_receipt: receipt } }) };
    }
    return { ok: false, envelope: errorEnvelope('result_budget_exceeded', `the result exceeds ${RESULT_BUDGET_BYTES} bytes`, d ? readContinuation(d, row, input) : {}) };
  }
  const e = o.error && typeof o.error === 'object' && !Array.isArray(o.error) ? (o.error as Record<string, unknown>) : {};
  const code = isErrorCode(e.code) ? e.code : 'internal';
  const message = typeof e.message === 'string' && e.message ? e.message : 'the action failed';
  const extra: Parameters<typeof errorEnvelope>[2] = {};
  if (typeof e.hint === 'string') extra.hint = bounded(e.hint);
  if (typeof e.next === 'string') extra.next = bounded(e.next);
  const metadata = code === 'result_budget_exceeded' ? reprojectMetadata(catalog, e.metadata) : undefined;
  if (metadata) extra.metadata = metadata;
  return { ok: false, envelope: errorEnvelope(code, message, extra) };
}

/** Receipt selectors from the request (e.g. taskId) or, for a create, the id of the one resource in the result. */
function selectorsOf(catalog: DescriptorCatalog, input: unknown, data: unknown): Record<string, string> {
  const keys = Object.keys(catalog.receiptSelectors);
  const out: Record<string, string> = {};
  const inp = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  for (const k of keys) if (typeof inp[k] === 'string') out[k] = inp[k] as string;
  if (Object.keys(out).length === 0 && data && typeof data === 'object') {
    const vals = Object.entries(data as Record<string, unknown>);
    const [name, v] = vals.length === 1 ? vals[0]! : ['', undefined];
    const id = v && typeof v === 'object' ? (v as { id?: unknown }).id : undefined;
    const key = `${name}Id`;
    if (typeof id === 'string' && keys.includes(key)) out[key] = id;
  }
  return out;
}

function selectorOf(input: unknown): string | undefined {
  const inp = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  const k = inp.idempotencyKey ?? inp.requestId;
  return typeof k === 'string' ? k : undefined;
}
