// Owns the CLI's strict projection of a daemon answer into the printed envelope (bounded, closed metadata only).
import type { DescriptorCatalog } from '../../catalog/types.js';
import { isErrorCode } from '../../shared/errors.js';
import { RESULT_BUDGET_BYTES } from '../../wire/exec/budget.js';
import { bounded, errorEnvelope, type ErrorEnvelope } from '../../wire/exec/envelope.js';
import { reprojectMetadata } from '../../wire/exec/receipt.js';

export type Printed = { ok: true; text: string } | { ok: false; envelope: ErrorEnvelope };

/**
 * Rebuilds the envelope from a daemon response body. Success passes through only within the 64 KiB boundary; an error
 * keeps a known code, bounded strings and re-projected receipt metadata; everything else is dropped.
 */
export function projectAnswer(catalog: DescriptorCatalog, domain: string, action: string, body: string): Printed {
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
    const row = catalog.inventory.get(`${domain}/${action}`);
    return { ok: false, envelope: errorEnvelope('result_budget_exceeded', `the result exceeds ${RESULT_BUDGET_BYTES} bytes`, row ? { hint: row.hint, next: row.next } : {}) };
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
