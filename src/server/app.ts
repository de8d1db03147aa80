// Owns the AgentTeam Server's composition: one store, one clock, and every registered domain's service wired to them (no singletons).
import type { Clock } from '../shared/clock.js';
import type { DomainDeps } from './context.js';
import type { BackgroundLoop, ServerDomain } from './domain.js';
import { FeedSignal } from './feed-signal.js';
import { idCounters } from './id-counters.js';
import { IdempotencyReceipts, type ClaimOwners } from './idempotency.js';
import { CursorCodec } from './pagination.js';
import type { Sql, Store } from './store/types.js';
import { loadWorkspaceMeta, type WorkspaceMeta } from './workspace.js';

export { SERVER_VERSION } from '../shared/version.js';

export interface ServerDomains {
  meta: WorkspaceMeta;
  /** One service per mounted domain, by its key (the domains' registry types them). */
  services: Readonly<Record<string, unknown>>;
  receipts: IdempotencyReceipts;
  /** The same services with every store call running in the transaction `sql` (their own tx become savepoints in it). */
  within(sql: Sql): ServerDomains;
}

export interface ServerComposition extends ServerDomains {
  /** The domains' background loops (the scheduler), not yet started; the server starts and stops them. */
  loops: readonly BackgroundLoop[];
}

/**
 * Wires the given domains (the composition root's list) over one store and clock. `owners` tells live server processes
 * from crashed ones, so their pending idempotency claims are released promptly.
 */
export async function createDomains(domains: readonly ServerDomain[], store: Store, clock: Clock, owners?: ClaimOwners): Promise<ServerComposition> {
  const meta = await loadWorkspaceMeta(store);
  const feed = new FeedSignal();
  // Messages committed by another server process on the same PostgreSQL database wake this process's turn reads too
  // (this process's own commits wake them through afterCommit, once).
  store.onFeedCommit?.(() => feed.notify());
  const deps: DomainDeps = { store, clock, meta, cursors: new CursorCodec(meta.cursorSecret), ids: idCounters(store.dialect), feed };
  return { ...wire(domains, deps, new IdempotencyReceipts(store, clock, owners)), loops: domains.flatMap((d) => (d.background ? [d.background(deps)] : [])) };
}

/** Services are cheap views over deps: meta, cursors, ids and receipts are shared, only the store differs per transaction. */
function wire(domains: readonly ServerDomain[], deps: DomainDeps, receipts: IdempotencyReceipts): ServerDomains {
  return {
    meta: deps.meta,
    services: Object.fromEntries(domains.map((d) => [d.key, d.service(deps)])),
    receipts,
    within: (sql) => wire(domains, { ...deps, store: deps.store.within(sql) }, receipts),
  };
}
