// Owns per-operation policy: an action whose input names an `operation` (spec: Workflow's closed operation matrix) is
// budgeted, receipted and keyed by that operation's own risk and result policy, not by the action's strongest one.
import type { ActionDescriptor, InventoryRow, OperationPolicy, ResultPolicy, Risk } from './types.js';

export const OPERATION_FIELD = 'operation';
const RANK: Record<Risk, number> = { read: 0, write: 1, destructive: 2 };

/** The `operation` of a request, when the descriptor declares operations and the request names one of them. */
export function operationOf(d: ActionDescriptor, input: unknown): string | undefined {
  if (!d.operations || !input || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const op = (input as Record<string, unknown>)[OPERATION_FIELD];
  return typeof op === 'string' && Object.hasOwn(d.operations, op) ? op : undefined;
}

/** The descriptor as seen by one request: its operation's risk and result policy (unchanged without operations). */
export function forRequest(d: ActionDescriptor, input: unknown): ActionDescriptor {
  const op = operationOf(d, input);
  return op === undefined ? d : { ...d, ...d.operations![op]! };
}

/** The inventory row as seen by one request: its operation's policy, hint and next. */
export function rowForRequest(d: ActionDescriptor, row: InventoryRow | undefined, input: unknown): InventoryRow | undefined {
  const op = operationOf(d, input);
  const o = op === undefined ? undefined : row?.operations?.[op];
  return row && o ? { domain: row.domain, action: row.action, risk: o.risk, resultPolicy: o.resultPolicy, hint: o.hint, next: o.next } : row;
}

/** The strongest risk and policy of a set of operations: what the action declares at its top level. */
export function strongest(ops: Readonly<Record<string, OperationPolicy>>): OperationPolicy {
  const all = Object.values(ops);
  const risk = all.reduce<Risk>((a, o) => (RANK[o.risk] > RANK[a] ? o.risk : a), 'read');
  const resultPolicy: ResultPolicy = risk === 'read' ? all[0]!.resultPolicy : 'mutation';
  return { risk, resultPolicy };
}

/**
 * Fails closed when an action's operations disagree with its input schema's `operation` union, with its inventory row,
 * with its top-level (strongest) policy, or when an operation mixes read risk and the mutation policy.
 */
export function verifyOperations(d: ActionDescriptor, row: InventoryRow, k: string): void {
  if (!d.operations && !row.operations) return;
  if (!d.operations || !row.operations) throw new Error(`catalog: ${k} declares operations on one side only`);
  const prop = (d.input as { properties?: Record<string, { anyOf?: { const?: unknown }[] }> }).properties?.[OPERATION_FIELD];
  const union = (prop?.anyOf ?? []).map((o) => o.const);
  const names = Object.keys(d.operations);
  if (union.length !== names.length || names.some((n) => !union.includes(n))) throw new Error(`catalog: ${k} operations differ from its input's operation union`);
  if (Object.keys(row.operations).sort().join() !== [...names].sort().join()) throw new Error(`catalog: ${k} inventory operations differ`);
  for (const n of names) {
    const o = d.operations[n]!;
    const r = row.operations[n]!;
    if (o.risk !== r.risk || o.resultPolicy !== r.resultPolicy) throw new Error(`catalog: ${k} operation ${n} disagrees with the inventory`);
    if ((o.risk === 'read') !== (o.resultPolicy !== 'mutation')) throw new Error(`catalog: ${k} operation ${n} mixes read risk and mutation policy`);
    if (!r.hint || !r.next) throw new Error(`action inventory: ${k} operation ${n} needs hint and next`);
  }
  const top = strongest(d.operations);
  if (top.risk !== d.risk || (top.risk !== 'read' && d.resultPolicy !== 'mutation')) throw new Error(`catalog: ${k} top-level policy must be its strongest operation's`);
}
