// Owns the console's assembly: builds its auth, read models, boards and assets, and mounts its routes on the daemon's router.
import type { AuthorizationStoreView } from '../authz/store.js';
import type { RunRecord } from '../runtime/launcher.js';
import type { ServerApi } from '../server-client/api.js';
import type { TurnRow } from '../sessions/journal.js';
import type { Clock } from '../shared/clock.js';
import type { RateLimitedLogger } from '../shared/log.js';
import type { Router } from '../wire/http/router.js';
import { ConsoleAssets } from './assets.js';
import { ConsoleBoards } from './boards.js';
import type { DenialCounts } from './denials.js';
import type { RouteMetrics } from './metrics.js';
import { ConsoleReads } from './read-models.js';
import { registerConsoleRoutes } from './routes.js';
import { ConsoleAuth } from './sessions.js';

export { DenialCounts } from './denials.js';
export { RouteMetrics } from './metrics.js';

export interface MountConsoleDeps {
  clock: Clock;
  diag: RateLimitedLogger;
  denials: DenialCounts;
  metrics: RouteMetrics;
  ownerToken: Buffer;
  port: () => number;
  owner: () => ServerApi;
  agents: () => Array<{ id: string; name: string; runtime: string; enabled: boolean }>;
  runtimes: () => RunRecord[];
  stopRuntime: (runId: string) => Promise<unknown>;
  authorizations: () => AuthorizationStoreView;
  turns: (limit: number) => Array<Omit<TurnRow, 'content'>>;
  post: (input: { target: string; content: string }) => Promise<unknown>;
  openDm: (name: string) => Promise<{ target: string }>;
  assetsDir?: string;
}

export function mountConsole(router: Router, d: MountConsoleDeps): void {
  const reads = new ConsoleReads({ clock: d.clock, owner: d.owner, agents: d.agents, runtimes: d.runtimes, authorizations: d.authorizations, turns: d.turns, denials: d.denials, metrics: d.metrics });
  registerConsoleRoutes(router, {
    auth: new ConsoleAuth(d.clock),
    reads,
    boards: new ConsoleBoards(d.owner),
    assets: new ConsoleAssets(d.assetsDir),
    clock: d.clock,
    diag: d.diag,
    ownerToken: d.ownerToken,
    port: d.port,
    post: d.post,
    stopRuntime: d.stopRuntime,
    openDm: d.openDm,
  });
}
