// Owns the AgentTeam Server's composition: one store, one clock, and the domain modules wired to them (no singletons).
import { SortableIds } from '../shared/ids.js';
import type { Clock } from '../shared/clock.js';
import { Channels } from './domains/channels.js';
import { Members } from './domains/members.js';
import { Messages } from './domains/messages.js';
import { Reviews } from './domains/reviews.js';
import { Tasks } from './domains/tasks.js';
import { loadWorkspaceMeta, type WorkspaceMeta } from './domains/workspace.js';
import { IdempotencyReceipts } from './idempotency.js';
import { CursorCodec } from './pagination.js';
import type { Store } from './store/types.js';

export const SERVER_VERSION = '0.1.0';

export interface ServerDomains {
  meta: WorkspaceMeta;
  members: Members;
  channels: Channels;
  messages: Messages;
  tasks: Tasks;
  reviews: Reviews;
  receipts: IdempotencyReceipts;
}

export async function createDomains(store: Store, clock: Clock): Promise<ServerDomains> {
  const meta = await loadWorkspaceMeta(store);
  const deps = { store, clock, cursors: new CursorCodec(meta.cursorSecret), ids: new SortableIds() };
  const messages = new Messages(deps);
  return {
    meta,
    members: new Members(deps, meta),
    channels: new Channels(deps),
    messages,
    tasks: new Tasks(deps, messages),
    reviews: new Reviews(deps),
    receipts: new IdempotencyReceipts(store, clock),
  };
}
