// Owns the AgentTeam Server's composition: one store, one clock, and the domain modules wired to them (no singletons).
import { SortableIds } from '../shared/ids.js';
import type { Clock } from '../shared/clock.js';
import { Channels } from './domains/channels.js';
import { Members } from './domains/members.js';
import { Messages } from './domains/messages.js';
import { Reviews } from './domains/reviews.js';
import { Tasks } from './domains/tasks.js';
import { loadWorkspaceMeta, type WorkspaceMeta } from './domains/workspace.js';
import { IdempotencyReceipts, type ClaimOwners } from './idempotency.js';
import { CursorCodec } from './pagination.js';
import type { Sql, Store } from './store/types.js';
import type { DomainDeps } from './domains/context.js';

export const SERVER_VERSION = '0.1.0';

export interface ServerDomains {
  meta: WorkspaceMeta;
  members: Members;
  channels: Channels;
  messages: Messages;
  tasks: Tasks;
  reviews: Reviews;
  receipts: IdempotencyReceipts;
  /** The same domains with every store call running in the transaction `sql` (their own tx become savepoints in it). */
  within(sql: Sql): ServerDomains;
}

/** `owners` tells live server processes from crashed ones, so their pending idempotency claims are released promptly. */
export async function createDomains(store: Store, clock: Clock, owners?: ClaimOwners): Promise<ServerDomains> {
  const meta = await loadWorkspaceMeta(store);
  return wire(meta, { store, clock, cursors: new CursorCodec(meta.cursorSecret), ids: new SortableIds() }, new IdempotencyReceipts(store, clock, owners));
}

/** Domain objects are cheap views over deps: meta, cursors, ids and receipts are shared, only the store differs per transaction. */
function wire(meta: WorkspaceMeta, deps: DomainDeps, receipts: IdempotencyReceipts): ServerDomains {
  const messages = new Messages(deps);
  return {
    meta,
    members: new Members(deps, meta),
    channels: new Channels(deps),
    messages,
    tasks: new Tasks(deps, messages),
    reviews: new Reviews(deps),
    receipts,
    within: (sql) => wire(meta, { ...deps, store: deps.store.within(sql) }, receipts),
  };
}
