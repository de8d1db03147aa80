// Owns continuation advice for an over-budget read, computed from the request that failed (never a static larger page).
import { shellQuote } from '../../catalog/help.js';
import type { ActionDescriptor, InventoryRow } from '../../catalog/types.js';
import { DEFAULT_LIMIT } from '../../shared/page.js';

const GENERIC_HINT = 'Request less data: a smaller limit or a narrower selector.';
const MAX_NEXT = 1000;

/**
 * A cursor read that failed at limit L is retried with the same filters and cursor at L/2 (rounded down, at least 1);
 * at limit 1 one item alone is too large, so it points at reading that item by its id. Bounded and narrow reads keep
 * the inventory's advice. Selectors (requestId/idempotencyKey) never enter the suggested command.
 */
export function readContinuation(d: ActionDescriptor, row: InventoryRow | undefined, input: unknown): { hint: string; next?: string } {
  if (d.resultPolicy !== 'cursor' || !input || typeof input !== 'object' || Array.isArray(input)) return { hint: row?.hint ?? GENERIC_HINT, ...(row?.next ? { next: row.next } : {}) };
  const { requestId: _r, idempotencyKey: _k, ...rest } = input as Record<string, unknown>;
  const limit = typeof rest.limit === 'number' && Number.isInteger(rest.limit) && rest.limit > 0 ? rest.limit : DEFAULT_LIMIT;
  if (limit <= 1 && d.operations && row) return { hint: row.hint, next: row.next };
  if (limit <= 1) return { hint: `One ${d.domain} alone exceeds the budget at limit 1; read it with agentteam exec ${d.domain} get.` };
  const smaller = Math.max(1, Math.floor(limit / 2));
  const next = `agentteam exec ${d.domain} ${d.action} ${shellQuote(JSON.stringify({ ...rest, limit: smaller }))}`;
  const hint = `Retry with limit ${smaller} (was ${limit}); keep the same filters and cursor.`;
  return next.length <= MAX_NEXT ? { hint, next } : { hint };
}
