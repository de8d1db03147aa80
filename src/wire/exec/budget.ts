// Owns the Exec result budget: a complete success envelope ≤ 64 KiB goes out unchanged; over it, a typed error (spec §Result Boundaries).
import type { ActionDescriptor, DescriptorCatalog, InventoryRow } from '../../catalog/types.js';
import type { ActionResult } from './action.js';
import { errorEnvelope, type ErrorEnvelope } from './envelope.js';
import { readContinuation } from './continuation.js';
import { buildReceipt } from './receipt.js';
import { forRequest, rowForRequest } from '../../catalog/operations.js';

export const RESULT_BUDGET_BYTES = 64 * 1024; // spec: shared Exec success boundary after JSON serialization

export type Budgeted = { ok: true; body: string } | { ok: false; envelope: ErrorEnvelope };

/**
 * Serializes the complete success envelope and enforces the boundary. Never truncates or replaces `data`.
 * Reads over budget → result_budget_exceeded with the inventory's hint/next. Mutations over budget → the same code with
 * metadata.mutation_applied=true and a closed receipt (no replay advice). A mutation whose result cannot be serialized
 * fails closed: no mutation_applied, no receipt, no replay advice.
 */
export function budgetSuccess(args: {
  descriptor: ActionDescriptor;
  row: InventoryRow | undefined;
  catalog: DescriptorCatalog;
  result: ActionResult<unknown>;
  idempotencyKey: string | undefined;
  /** The validated request, from which a read's continuation is computed. */
  input?: unknown;
  limit?: number;
}): Budgeted {
  // An action with an `operation` union is budgeted by the requested operation's own risk and result policy.
  const d = forRequest(args.descriptor, args.input);
  const row = rowForRequest(args.descriptor, args.row, args.input);
  const limit = args.limit ?? RESULT_BUDGET_BYTES;
  const mutation = d.risk !== 'read';
  let body: string | undefined;
  try {
    body = JSON.stringify({ ok: true, data: args.result.data });
  } catch {
    body = undefined;
  }
  if (body !== undefined && Buffer.byteLength(body) <= limit) return { ok: true, body };
  if (body === undefined && mutation) {
    // Security invariant: a serialization failure cannot produce a trustworthy receipt; private causes never cross.
    return { ok: false, envelope: errorEnvelope('result_budget_exceeded', 'the action ran but its result could not be serialized; read the resource to see its state') };
  }
  const what = body === undefined ? 'could not be serialized' : `exceeds ${limit} bytes`;
  if (!mutation) {
    return { ok: false, envelope: errorEnvelope('result_budget_exceeded', `the result ${what}`, readContinuation(d, row, args.input)) };
  }
  const receipt = buildReceipt(args.catalog, args.result.mutation, args.idempotencyKey);
  return {
    ok: false,
    envelope: errorEnvelope('result_budget_exceeded', `the change was applied but its result ${what}`, {
      ...(row?.hint ? { hint: row.hint } : {}),
      metadata: { mutation_applied: true, mutation_receipt: receipt },
    }),
  };
}
