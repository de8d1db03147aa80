// Owns DefaultDescriptorCatalog(domains): the given domains' descriptors checked row-for-row against action-inventory.json.
import rows from './action-inventory.json' with { type: 'json' };
import { verifyOperations } from './operations.js';
import type { ActionDescriptor, DescriptorCatalog, ExecDomain, InventoryRow, ReadBack } from './types.js';

const NAME = /^[a-z][a-z0-9-]{0,31}$/;
const RISKS = new Set(['read', 'write', 'destructive']);
const POLICIES = new Set(['cursor', 'bounded', 'narrow', 'mutation']);

export const actionKey = (domain: string, action: string) => `${domain}/${action}`;

/**
 * Checks descriptors against inventory rows and returns the rows by key. Throws (fail closed) when an action lacks a
 * row, a row names no action, a key repeats, or risk / result policy disagree; reads must not use the mutation policy.
 */
export function verifyInventory(descriptors: readonly ActionDescriptor[], inventory: readonly InventoryRow[]): Map<string, InventoryRow> {
  const byKey = new Map<string, InventoryRow>();
  for (const r of inventory) {
    const k = actionKey(r.domain, r.action);
    if (byKey.has(k)) throw new Error(`action inventory: duplicate row ${k}`);
    if (!RISKS.has(r.risk) || !POLICIES.has(r.resultPolicy)) throw new Error(`action inventory: bad risk or policy in row ${k}`);
    if (typeof r.hint !== 'string' || !r.hint || typeof r.next !== 'string' || !r.next) throw new Error(`action inventory: row ${k} needs hint and next`);
    byKey.set(k, r);
  }
  const seen = new Set<string>();
  for (const d of descriptors) {
    const k = actionKey(d.domain, d.action);
    if (!NAME.test(d.domain) || !NAME.test(d.action)) throw new Error(`catalog: bad action name ${k}`);
    if (seen.has(k)) throw new Error(`catalog: duplicate action ${k}`);
    seen.add(k);
    const r = byKey.get(k);
    if (!r) throw new Error(`catalog: action ${k} has no inventory row`);
    if (r.risk !== d.risk) throw new Error(`catalog: risk of ${k} is ${d.risk} but the inventory says ${r.risk}`);
    if (r.resultPolicy !== d.resultPolicy) throw new Error(`catalog: result policy of ${k} is ${d.resultPolicy} but the inventory says ${r.resultPolicy}`);
    if ((d.risk === 'read') !== (d.resultPolicy !== 'mutation')) throw new Error(`catalog: ${k} mixes read risk and mutation policy`);
    verifyOperations(d, r, k);
  }
  for (const k of byKey.keys()) if (!seen.has(k)) throw new Error(`action inventory: row ${k} names no action`);
  return byKey;
}

/** Receipt selector → the Exec action that reads that resource back, from each domain's `selector` and `readBack`. */
export function receiptSelectorsOf(domains: readonly ExecDomain[]): Readonly<Record<string, ReadBack>> {
  return Object.freeze(
    Object.fromEntries(
      domains.flatMap((d) => [
        ...(d.selector ? [[d.selector, { domain: d.name, action: 'get' }] as const] : []),
        ...Object.entries(d.readBack ?? {}).map(([k, v]) => [k, { domain: d.name, ...v }] as const),
      ]),
    ),
  );
}

/** Builds a DescriptorCatalog from descriptors and rows (tests pass their own to prove mismatches fail). */
export function makeDescriptorCatalog(descriptors: readonly ActionDescriptor[], inventory: readonly InventoryRow[], domains: readonly ExecDomain[] = []): DescriptorCatalog {
  const rowsByKey = verifyInventory(descriptors, inventory);
  const byKey = new Map(descriptors.map((d) => [actionKey(d.domain, d.action), d] as const));
  const names = [...new Set(descriptors.map((d) => d.domain))];
  const summaries = new Map(domains.flatMap((d) => (d.summary ? [[d.name, d.summary] as const] : [])));
  return Object.freeze({
    actions: Object.freeze([...descriptors]),
    inventory: rowsByKey,
    find: (domain: string, action: string) => byKey.get(actionKey(domain, action)),
    domains: () => [...names],
    summary: (domain: string) => summaries.get(domain),
    receiptSelectors: receiptSelectorsOf(domains),
  });
}

/**
 * The descriptor-only source for help, schemas, examples, validation, OpenAPI and the prompt summary, built from the
 * domains the composition root passes (the registry's list). No handlers.
 */
export function DefaultDescriptorCatalog(domains: readonly ExecDomain[]): DescriptorCatalog {
  return makeDescriptorCatalog(
    domains.flatMap((d) => d.descriptors ?? []),
    rows as InventoryRow[],
    domains,
  );
}
