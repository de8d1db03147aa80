// Owns the Exec facet of the registered domains (names, summaries, selectors, descriptors) as the exec
// entry reads it. scripts/exec-bundle.mjs replaces this module in dist/exec.mjs with the same data frozen at build time,
// so `agentteam exec` loads no domain server code; the registry stays the one source (exec-domains.test.ts checks both agree).
import type { ExecDomain } from '../../catalog/types.js';
import { DOMAINS } from '../../domains/registry.js';

/** Only the fields the catalog reads (inventory rows come from action-inventory.json), in registry order; absent fields stay absent. */
export function execFacet(d: ExecDomain): ExecDomain {
  const { name, summary, selector, readBack, descriptors } = d;
  return Object.fromEntries(Object.entries({ name, summary, selector, readBack, descriptors }).filter(([, v]) => v !== undefined)) as unknown as ExecDomain;
}

export function execDomains(): readonly ExecDomain[] {
  return DOMAINS.map(execFacet);
}
