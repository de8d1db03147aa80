// Composition root: wires every part of the daemon once (home, lock, server, authorization store, routes) and owns shutdown.
import { randomBytes } from 'node:crypto';
import { rmSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { scrubProcessEnv } from '../authz/env.js';
import { RuntimeAuthorizationStore } from '../authz/store.js';
import { sweepStale } from '../authz/credential-file.js';
import { buildRuntimeCatalog } from '../catalog/index.js';
import { RuntimeLauncher } from '../runtime/launcher.js';
import { startServerInWorker } from '../server/in-worker.js';
import type { ServerApi } from '../server-client/api.js';
import { ServerClient } from '../server-client/client.js';
import { systemClock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { newToken } from '../shared/ids.js';
import { createLogger, RateLimitedLogger } from '../shared/log.js';
import type { TokenInfo } from '../authz/types.js';
import { registerExecRoutes } from '../wire/exec/routes.js';
import { registerMcpRoutes } from '../wire/mcp/routes.js';
import { AttachmentBudget } from '../tools/agentteam/attachment-budget.js';
import { createAgentteamHandler } from '../tools/agentteam/handler.js';
import { MemorySearch } from '../memorysearch/service.js';
import { Router } from '../wire/http/router.js';
import { ensureHome, loadOrCreateSecret, readTextIfExists, writePrivateFile } from './home.js';
import { createLocalApiServer } from './local-api.js';
import { acquireLock } from './lock.js';
import { registerOwnerRoutes } from './owner-api.js';
import { OwnerService } from './owner-service.js';
import { ProfileStore } from './profiles.js';

export interface DaemonOptions {
  home: string;
  port: number;
  /** Remote AgentTeam Server; embedded when absent. */
  serverUrl?: string;
  serverId?: string;
  /** Admin token of a remote server (bootstrap only). */
  serverAdminToken?: string;
  tokenTtlMs?: number;
  /** Fraction of the TTL at which renewal starts (store default 0.8). */
  tokenRenewAt?: number;
  binDir: string;
  shutdownTimeoutMs?: number;
}

export interface DaemonHandle {
  port: number;
  stop(): Promise<void>;
  done: Promise<void>;
}

export class AlreadyRunning extends Error {
  constructor(readonly pid: number) {
    super(`a daemon is already running for this home (pid ${pid})`);
  }
}

const GENERAL = 'general';

export async function runDaemon(opts: DaemonOptions): Promise<DaemonHandle> {
  // Security invariant: a daemon started inside a runtime drops the parent's Exec/MCP variables before anything else.
  scrubProcessEnv(process.env);
  const paths = ensureHome(opts.home);
  const lock = acquireLock(paths.lock);
  if (!lock.ok) throw new AlreadyRunning(lock.owner.pid);
  const started = systemClock.now();
  const bootId = randomBytes(8).toString('hex');
  const log = createLogger({ dir: paths.logs, name: 'daemon' });
  const diag = new RateLimitedLogger(log.child({ component: 'diagnostics' }), systemClock);
  const cleanups: Array<() => Promise<void> | void> = [() => lock.release()];
  try {
    // Stale credentials of a crashed daemon are removed before any service starts.
    const swept = await sweepStale(paths.credentials);
    for (const d of readdirSync(paths.runtimes)) rmSync(join(paths.runtimes, d), { recursive: true, force: true });
    if (swept > 0) log.warn({ swept }, 'removed stale credential directories');

    const ownerToken = loadOrCreateSecret(paths.ownerToken, () => newToken('ato'));
    let serverUrl = opts.serverUrl;
    let adminToken = opts.serverAdminToken;
    let mode: 'embedded' | 'remote' = 'remote';
    if (!serverUrl) {
      mode = 'embedded';
      adminToken = loadOrCreateSecret(paths.serverAdminToken, () => newToken('ata'));
      // The embedded server runs in its own thread (own event loop, own CPU); it logs to logs/server.log.
      const embedded = await startServerInWorker({ dbPath: paths.db, adminToken, port: 0, logDir: paths.logs, logger: log.child({ component: 'server' }) });
      cleanups.unshift(() => embedded.close());
      serverUrl = embedded.url;
    }
    const client = new ServerClient({ baseUrl: serverUrl });
    cleanups.unshift(() => client.close());
    const info = await client.info();
    if (opts.serverId && info.serverId !== opts.serverId) throw new Error(`the server at --server-url reports a different server id than --server-id`);
    const serverId = info.serverId;

    // The Human owner's server credential lives in owner.json (0600); bootstrap is idempotent.
    let ownerCred = (JSON.parse(readTextIfExists(paths.ownerProfile) ?? '{}') as { serverId?: string; credential?: string }).credential;
    if (!ownerCred) {
      if (!adminToken) throw new Error('no owner credential for this server and no admin token to bootstrap it');
      const boot = await client.bootstrap(adminToken, { ownerName: 'owner' });
      if (!boot.ownerCredential) throw new Error('the server already has an owner and this home has lost its credential');
      writePrivateFile(paths.ownerProfile, JSON.stringify({ serverId, memberId: boot.owner.id, credential: boot.ownerCredential }, null, 2) + '\n');
      ownerCred = boot.ownerCredential;
    }
    const ownerApi = client.as(ownerCred);

    const profiles = new ProfileStore(paths.profiles);
    const agentApis = new Map<string, ServerApi>();
    const apiFor = (tokenInfo: TokenInfo): ServerApi => {
      const id = tokenInfo.authorization.agentId;
      const cached = agentApis.get(id);
      if (cached) return cached;
      const p = profiles.get(id);
      if (!p) throw new AppError('denied', 'agent is not configured on this daemon');
      const api = client.as(p.credential);
      agentApis.set(id, api);
      return api;
    };

    const memLog = log.child({ component: 'memory' });
    const memory = new MemorySearch({
      memoryRoot: paths.memory,
      indexRoot: paths.memoryIndex,
      clock: systemClock,
      onError: (agentId, what, e) => memLog.warn({ agentId, what, code: (e as NodeJS.ErrnoException).code ?? 'error' }, 'memory index problem'),
    });
    cleanups.unshift(() => memory.close());

    const store = new RuntimeAuthorizationStore({ clock: systemClock, credentialsDir: paths.credentials, log: log.child({ component: 'authz' }), diag, ttlMs: opts.tokenTtlMs, renewAt: opts.tokenRenewAt });
    const catalog = buildRuntimeCatalog();
    const router = new Router();
    let port = 0;
    const launcher = new RuntimeLauncher({
      store,
      serverId: () => serverId,
      daemonUrl: () => `http://127.0.0.1:${port}`,
      binDir: opts.binDir,
      runtimesDir: paths.runtimes,
      catalog: () => catalog,
      log: log.child({ component: 'runtime' }),
      memory,
    });

    let stopping: Promise<void> | undefined;
    let resolveDone!: () => void;
    const done = new Promise<void>((r) => (resolveDone = r));
    const stop = (): Promise<void> => {
      stopping ??= (async () => {
        log.info('daemon stopping');
        const bound = opts.shutdownTimeoutMs ?? 10_000;
        http.close();
        // Strong shutdown: stop runtimes (each exit revokes), then revoke anything left and wait (bounded) for drain + removal.
        await launcher.shutdown(bound / 2);
        await store.shutdown(bound / 2);
        http.closeAllConnections();
        for (const c of cleanups) await Promise.resolve(c()).catch(() => undefined);
        try {
          unlinkSync(paths.daemonJson);
        } catch {
          /* already gone */
        }
        log.info('daemon stopped');
        resolveDone();
      })();
      return stopping;
    };

    const service = new OwnerService({
      owner: () => ownerApi,
      profiles,
      launcher,
      generalChannel: GENERAL,
      stop,
      status: async () => ({
        healthy: true,
        pid: process.pid,
        port,
        bootId,
        uptimeMs: systemClock.now() - started,
        home: paths.root,
        server: { mode, serverId, url: serverUrl },
        counts: { agents: profiles.size, runtimes: launcher.running, ...store.stats() },
      }),
    });
    registerOwnerRoutes(router, { ownerToken: Buffer.from(ownerToken), service, diag });
    const attachments = { home: paths.root, budget: new AttachmentBudget() };
    registerMcpRoutes(router, { gate: store, diag, log: log.child({ component: 'mcp' }), handler: createAgentteamHandler({ memory, attachments }), apiFor });
    registerExecRoutes(router, { gate: store, diag, log: log.child({ component: 'exec' }), apiFor });

    const http = createLocalApiServer(router, log);
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(opts.port, '127.0.0.1', () => resolve());
    });
    port = (http.address() as AddressInfo).port;
    writePrivateFile(paths.daemonJson, JSON.stringify({ pid: process.pid, port, bootId, startedAt: new Date(started).toISOString() }) + '\n');
    log.info({ port, mode, serverId }, 'daemon started');
    return { port, stop, done };
  } catch (e) {
    for (const c of cleanups) await Promise.resolve(c()).catch(() => undefined);
    throw e;
  }
}
