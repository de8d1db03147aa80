// Composition root: wires every part of the daemon once (home, lock, server, authorization store, routes) and owns shutdown.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { scrubProcessEnv } from '../authz/env.js';
import { RuntimeAuthorizationStore } from '../authz/store.js';
import { sweepStale } from '../authz/credential-file.js';
import { RuntimeCatalogs } from '../domains/extension/snapshot.js';
import type { ExtensionName } from '../domains/extension/definitions.js';
import { RuntimeLauncher } from '../runtime/launcher.js';
import { stopOrphans } from '../runtime/orphans.js';
import { startServerInWorker } from '../server/in-worker.js';
import type { ServerApi } from '../server-client/api.js';
import { systemClock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { newToken } from '../shared/ids.js';
import { createLogger, RateLimitedLogger } from '../shared/log.js';
import type { TokenInfo } from '../authz/types.js';
import { registerExecRoutes } from '../wire/exec/routes.js';
import { withChildEffectCheck } from '../wire/mcp/child-effect.js';
import { registerMcpRoutes } from '../wire/mcp/routes.js';
import { AttachmentBudget } from '../tools/agentteam/attachment-budget.js';
import { createAgentteamHandler } from '../tools/agentteam/handler.js';
import { MemorySearch } from '../memorysearch/service.js';
import { Router } from '../wire/http/router.js';
import { DenialCounts, mountConsole, RouteMetrics } from '../console/index.js';
import { ensureHome, loadOrCreateSecret, readTextIfExists, writePrivateFile } from '../home/home.js';
import { clientFor, connectWithBackoff, probeServer, readRememberedServer, rememberServer, versionSkew } from './server-link.js';
import { SERVER_VERSION } from '../shared/version.js';
import { createLocalApiServer } from './local-api.js';
import { acquireLock } from './lock.js';
import { registerOwnerRoutes } from './owner-api.js';
import { OwnerService } from './owner-service.js';
import { ProfileStore, type AgentProfile } from '../home/profiles.js';
import { AgentIndex } from './agent-index.js';
import { AgentLifecycle } from './agent-lifecycle.js';
import type { LocalServices } from '../wire/exec/register.js';
import { TurnEngine, type TurnEngineOptions } from '../sessions/engine.js';
import { TurnJournal } from '../sessions/journal.js';
import { SessionMetadata } from '../sessions/metadata.js';
import { PromptCompiler } from '../sessions/prompt.js';
import { killOrphan, turnRunner } from '../sessions/runner.js';
import { builtinActions, builtinCatalog } from '../domains/registry.js';

export interface DaemonOptions {
  home: string;
  port: number;
  /** Remote AgentTeam Server process URLs (failover in turn); remembered in the home. Absent: the remembered ones, else embedded. */
  serverUrls?: string[];
  serverId?: string;
  /** PEM CA file trusted for an https:// server (remembered with the URLs). */
  serverCaFile?: string;
  /** How long start-up keeps retrying an unreachable remote server (default 60 s). */
  serverWaitMs?: number;
  /** Start-up progress lines (server unreachable, retrying); default stderr. */
  say?: (line: string) => void;
  /** Admin token of a remote server (bootstrap only). */
  serverAdminToken?: string;
  tokenTtlMs?: number;
  /** Fraction of the TTL at which renewal starts (store default 0.8). */
  tokenRenewAt?: number;
  binDir: string;
  shutdownTimeoutMs?: number;
  /** Open connections per listener (daemon and embedded server); default LISTENER_DEFAULTS.maxConnections. */
  maxConnections?: number;
  /** Turn engine settings (concurrency, loop bound, turn timeout). */
  turns?: TurnEngineOptions;
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
  // The console counts the diagnostic log's denial classes as they are written (the log itself is unchanged).
  const denials = new DenialCounts(systemClock);
  const diag = new RateLimitedLogger(denials.wrap(log.child({ component: 'diagnostics' })), systemClock);
  const metrics = new RouteMetrics(systemClock);
  const cleanups: Array<() => Promise<void> | void> = [() => lock.release()];
  const limits = opts.maxConnections ? { limits: { maxConnections: opts.maxConnections } } : {};
  try {
    // Runtimes a killed daemon left running are stopped, and its stale credentials removed, before any service starts.
    const orphans = await stopOrphans(paths.runtimes, log);
    if (orphans > 0) log.warn({ orphans }, 'stopped runtimes left by a previous daemon');
    const swept = await sweepStale(paths.credentials);
    if (swept > 0) log.warn({ swept }, 'removed stale credential directories');

    const ownerToken = loadOrCreateSecret(paths.ownerToken, () => newToken('ato'));
    const remembered = readRememberedServer(paths.serverConfig);
    let adminToken = opts.serverAdminToken;
    let mode: 'embedded' | 'remote' = 'remote';
    let link: { urls: string[]; caFile?: string };
    if (opts.serverUrls) {
      // Security invariant: a home stays with the server it joined; pointing it at another server is refused, not adopted.
      if (remembered && opts.serverId && remembered.serverId !== opts.serverId) throw new Error(`this home belongs to server ${remembered.serverId}, not ${opts.serverId}`);
      link = { urls: opts.serverUrls, ...((opts.serverCaFile ?? remembered?.caFile) ? { caFile: opts.serverCaFile ?? remembered!.caFile! } : {}) };
    } else if (remembered) {
      link = remembered;
    } else {
      mode = 'embedded';
      adminToken = loadOrCreateSecret(paths.serverAdminToken, () => newToken('ata'));
      // The embedded server runs in its own thread (own event loop, own CPU); it logs to logs/server.log.
      const embedded = await startServerInWorker({ dbPath: paths.db, adminToken, port: 0, ...limits, logDir: paths.logs, logger: log.child({ component: 'server' }) });
      cleanups.unshift(() => embedded.close());
      link = { urls: [embedded.url] };
    }
    const client = clientFor(link);
    cleanups.unshift(() => client.close());
    const say = opts.say ?? ((l: string) => void process.stderr.write(`agentteam: ${l}\n`));
    const info = mode === 'embedded' ? await client.info() : await connectWithBackoff(client, { clock: systemClock, waitMs: opts.serverWaitMs ?? 60_000, say });
    // A remote server of another major.minor would answer routes or DTOs this daemon does not know: refused, clearly.
    const skew = mode === 'remote' ? versionSkew(info.version, SERVER_VERSION) : undefined;
    if (skew) throw new Error(skew);
    const expected = opts.serverId ?? remembered?.serverId;
    if (expected && info.serverId !== expected) throw new Error(`the server at --server-url reports a different server id than ${opts.serverId ? '--server-id' : 'this home remembers'}`);
    const serverId = info.serverId;
    // Remembered before anything else, so a restart without flags reconnects here and never starts an embedded workspace.
    if (mode === 'remote') rememberServer(paths.serverConfig, { urls: link.urls, serverId, ...(link.caFile ? { caFile: link.caFile } : {}) });

    // The Human owner's server credential lives in owner.json (0600); bootstrap is idempotent.
    const ownerFile = JSON.parse(readTextIfExists(paths.ownerProfile) ?? '{}') as { serverId?: string; memberId?: string; credential?: string };
    let ownerCred = ownerFile.credential;
    let ownerMemberId = ownerFile.memberId;
    if (!ownerCred) {
      const flags = `--server-url ${link.urls.join(',')}${link.caFile ? ` --server-ca ${link.caFile}` : ''}`;
      const askInvite = `ask its owner or an admin for an invite, then run: agentteam init ${flags} --invite CODE`;
      // A home that joined before (server.json) lost its credential; a fresh home never had one: each is told its next step.
      const lost = remembered ? `this home joined server ${serverId} but its credential (owner.json) is gone; in a new home, ` : '';
      if (!adminToken) throw new Error(`${lost || 'this home has no member credential for this server; to join, '}${askInvite}${lost ? '' : `; to become its owner: AGENTTEAM_SERVER_ADMIN_TOKEN=$(cat ADMIN_TOKEN_FILE) agentteam init ${flags}`}`);
      const boot = await client.bootstrap(adminToken, { ownerName: 'owner' });
      if (!boot.ownerCredential) throw new Error(lost ? `${lost}${askInvite}` : `this server already has an owner; ${askInvite}`);
      writePrivateFile(paths.ownerProfile, JSON.stringify({ serverId, memberId: boot.owner.id, credential: boot.ownerCredential }, null, 2) + '\n');
      ownerCred = boot.ownerCredential;
      ownerMemberId = boot.owner.id;
    }
    const ownerApi = client.as(ownerCred);
    // The owning profile: this daemon's Human owner. Profiles another owner added are never loaded.
    const ownerId = ownerMemberId ?? (await ownerApi.members.me()).id;

    const profiles = new ProfileStore(paths.profiles, ownerId);
    const agentApis = new Map<string, ServerApi>();
    const apiOf = (p: AgentProfile): ServerApi => {
      const cached = agentApis.get(p.id);
      if (cached) return cached;
      const api = client.as(p.credential);
      agentApis.set(p.id, api);
      return api;
    };
    const apiFor = (tokenInfo: TokenInfo): ServerApi => {
      const p = profiles.get(tokenInfo.authorization.agentId);
      if (!p) throw new AppError('denied', 'agent is not configured on this daemon');
      return apiOf(p);
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
    const extLog = log.child({ component: 'extensions' });
    const catalogs = new RuntimeCatalogs(builtinCatalog(), (e) => extLog.warn({ error: e instanceof Error ? e.message.slice(0, 200) : 'error' }, 'extension snapshot not used; runtime gets the built-ins only'));
    const router = new Router();
    let port = 0;
    const metadata = new SessionMetadata();
    const attachments = { home: paths.root, budget: new AttachmentBudget() };
    const mcpHandler = createAgentteamHandler({ memory, attachments });
    const launcher = new RuntimeLauncher({
      metadata,
      store,
      serverId: () => serverId,
      daemonUrl: () => `http://127.0.0.1:${port}`,
      binDir: opts.binDir,
      runtimesDir: paths.runtimes,
      catalog: (agent) => catalogs.forAgent(apiOf(agent).extensions),
      daemonSecrets: () => [ownerToken, ownerCred!, ...(adminToken ? [adminToken] : []), ...profiles.list().flatMap((p) => [p.credential, ...(p.apiKey ? [p.apiKey] : []), ...Object.values(p.headers ?? {})])],
      log: log.child({ component: 'runtime' }),
      memory,
      home: paths.root,
    });
    // Turn feeds long-poll on their own connection pool, so many hosted agents never starve tool calls of sockets.
    const feedClient = clientFor(link, 15_000);
    cleanups.unshift(() => feedClient.close());
    const feedApis = new Map<string, ServerApi>();
    const feedApiOf = (p: AgentProfile): ServerApi => {
      let api = feedApis.get(p.id);
      if (!api) feedApis.set(p.id, (api = feedClient.as(p.credential)));
      return api;
    };
    const journal = new TurnJournal(paths.sessions);
    cleanups.unshift(() => journal.close());
    // An agent with no workdir runs its turns in an empty private folder of this daemon run, never in the home.
    const defaultWorkdir = mkdtempSync(join(tmpdir(), 'agentteam-workdir-'));
    cleanups.unshift(() => rmSync(defaultWorkdir, { recursive: true, force: true }));
    const engine = new TurnEngine(
      {
        journal,
        clock: systemClock,
        log: log.child({ component: 'turns' }),
        agents: () => profiles.list(),
        agent: (id) => profiles.get(id),
        apiOf: feedApiOf,
        run: turnRunner({ launcher, compiler: new PromptCompiler(mcpHandler), defaultWorkdir }),
        killOrphan,
      },
      opts.turns,
    );

    const agentIndex = new AgentIndex({ store: profiles, owner: ownerId, live: (id) => ({ runtimeLive: launcher.runtimeLive(id), turnLive: engine.turnLive(id) }) });
    const localsFor = (): LocalServices => ({ agents: agentIndex });
    const lifecycle = new AgentLifecycle({
      index: agentIndex,
      profiles,
      runtimes: launcher,
      turns: engine,
      leftovers: [journal, memory],
      agentMembers: async () => new Set((await ownerApi.members.list()).filter((m) => m.kind === 'agent').map((m) => m.id)),
      log: log.child({ component: 'agents' }),
    });
    // Orphan cleanup before any turn runs: a profile whose server member is gone leaves nothing behind.
    await lifecycle.cleanupOrphans();

    let stopping: Promise<void> | undefined;
    let resolveDone!: () => void;
    const done = new Promise<void>((r) => (resolveDone = r));
    const stop = (): Promise<void> => {
      stopping ??= (async () => {
        log.info('daemon stopping');
        const bound = opts.shutdownTimeoutMs ?? 10_000;
        http.close();
        // Turns stop first (no new ones start); their runtimes are stopped with the rest and recorded as interrupted.
        const turnsDone = engine.stop();
        // Strong shutdown: stop runtimes (each exit revokes), then revoke anything left and wait (bounded) for drain + removal.
        await launcher.shutdown(bound / 2);
        await Promise.race([turnsDone, new Promise((r) => setTimeout(r, bound / 4).unref())]);
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
      index: agentIndex,
      lifecycle,
      ownerId,
      launcher,
      journal,
      onAgentAdded: (p) => engine.follow(p),
      generalChannel: GENERAL,
      home: paths.root,
      stop,
      link: () => ({ mode, urls: link.urls, ...(link.caFile ? { caFile: link.caFile } : {}) }),
      status: async () => {
        const reach = await probeServer(client);
        const member = reach.reachable && reach.database === 'ok' ? await memberStanding(ownerApi) : undefined;
        return {
          // Healthy means usable: this daemon, its server process and the server's database all answer, and the server still accepts this home's member.
          healthy: reach.reachable && reach.database === 'ok' && member?.current !== false,
          ...(member?.current === false ? { reason: member.reason } : {}),
          pid: process.pid,
          port,
          bootId,
          uptimeMs: systemClock.now() - started,
          home: paths.root,
          server: { mode, serverId, url: reach.url ?? client.url, urls: link.urls, reachable: reach.reachable, database: reach.database, ...(reach.error ? { error: reach.error } : {}) },
          ...(member ? { member } : {}),
          counts: { agents: profiles.size, runtimes: launcher.running, turns: engine.active, ...store.stats() },
        };
      },
    });
    registerOwnerRoutes(router, { ownerToken: Buffer.from(ownerToken), service, diag });
    mountConsole(router, {
      clock: systemClock,
      diag,
      denials,
      metrics,
      ownerToken: Buffer.from(ownerToken),
      port: () => port,
      owner: () => ownerApi,
      agents: () => profiles.list().map((p) => ({ id: p.id, name: p.name, runtime: p.runtime, enabled: p.enabled !== false })),
      runtimes: () => launcher.list(),
      stopRuntime: (runId) => launcher.stop(runId),
      authorizations: () => store.view(),
      turns: (limit) => journal.recentAll(limit),
      post: (input) => service.postMessage(input),
      openDm: async (name) => ({ target: (await service.channels.openDm([name])).target }),
    });
    registerMcpRoutes(router, { gate: store, diag, log: log.child({ component: 'mcp' }), handler: withChildEffectCheck(mcpHandler, diag), apiFor, turnOf: (info) => metadata.currentTurn(info) });
    registerExecRoutes(router, { gate: store, diag, log: log.child({ component: 'exec' }), apiFor, localsFor, catalog: builtinCatalog(), actions: builtinActions(), extensionsFor: (i) => (call, signal) => apiFor(i).extensions.call({ ...call, extension: call.extension as ExtensionName }, { signal }) });

    const http = createLocalApiServer(router, log, limits.limits, metrics);
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(opts.port, '127.0.0.1', () => resolve());
    });
    port = (http.address() as AddressInfo).port;
    writePrivateFile(paths.daemonJson, JSON.stringify({ pid: process.pid, port, bootId, startedAt: new Date(started).toISOString() }) + '\n');
    engine.start();
    log.info({ port, mode, serverId }, 'daemon started');
    return { port, stop, done };
  } catch (e) {
    for (const c of cleanups) await Promise.resolve(c()).catch(() => undefined);
    throw e;
  }
}

/**
 * Whether the server still accepts this home's member credential (a removed member's is refused at once). Only a denial
 * makes the daemon unhealthy; a failed probe of another kind says nothing about the member.
 */
async function memberStanding(api: ServerApi): Promise<{ current: boolean; id?: string; role?: string; reason?: string } | undefined> {
  try {
    const me = await api.members.me({}, { signal: AbortSignal.timeout(3000) });
    return { current: true, id: me.id, role: me.role };
  } catch (e) {
    if (e instanceof AppError && e.code === 'denied') {
      return { current: false, reason: "the server refuses this home's member credential: this member was removed from the workspace (or its credential replaced); ask the owner or an admin for a new invite and join with another --home" };
    }
    return undefined;
  }
}
