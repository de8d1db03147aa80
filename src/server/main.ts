// Owns starting and stopping the AgentTeam Server: open the store (SQLite or PostgreSQL), wire domains, listen on loopback, close cleanly.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock, type Clock } from '../shared/clock.js';
import { createLogger, type Logger } from '../shared/log.js';
import { createHardenedServer, type ListenerLimits } from '../wire/http/listener.js';
import { createDomains } from './app.js';
import type { ServerDomain } from './domain.js';
import { assembleSchema } from './store/migrations.js';
import { createRequestHandler } from './http/handler.js';
import { LOOPBACK_BIND, parseAllowedHosts } from './http/host-allow.js';
import { ServerProcess } from './processes.js';
import { openStore } from './store/open.js';

export interface StartServerOptions {
  /** The product domains to mount (the composition root's registry): their routes, services, schema and loops. */
  domains: readonly ServerDomain[];
  /** `sqlite:PATH` or `postgres://USER@HOST:PORT/DB`; wins over dbPath. */
  db?: string;
  /** A SQLite file path (the embedded default); same as db `sqlite:PATH`. */
  dbPath?: string;
  /** Bind address (default 127.0.0.1). Any other address needs allowedHosts. */
  host?: string;
  /** Host names clients use to reach this server (besides loopback); required when host is not loopback. */
  allowedHosts?: readonly string[];
  /** PEM certificate chain and key: the server terminates TLS itself (https://). Without it, plain http. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Plain http off loopback, TLS terminated by a proxy in front: other machines' requests need X-Forwarded-Proto: https. */
  tlsProxy?: boolean;
  /** 0 (default) picks an ephemeral port. */
  port?: number;
  /** Unlocks only POST /v1/admin/bootstrap. Never logged. */
  adminToken: string;
  logger?: Logger;
  clock?: Clock;
  /** Requests admitted at once (default 2048, above the daemon's 1024); more get 409 admission_rejected unread. */
  maxInFlight?: number;
  /** Connection bound and timeouts of the listener (defaults: LISTENER_DEFAULTS). */
  limits?: ListenerLimits;
}

export interface RunningServer {
  url: string;
  serverId: string;
  /** Resolves when no background pass (scheduler tick) is in flight (in-process servers only). */
  idle?(): Promise<void>;
  close(): Promise<void>;
}

const RECEIPT_PURGE_MS = 60 * 60 * 1000;
/** On close, kept-alive connections (a daemon's long-polls reuse theirs) get this long to finish before being cut. */
export const CLOSE_GRACE_MS = 5_000;

export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  if (typeof opts.adminToken !== 'string' || opts.adminToken.length < 16) throw new Error('adminToken must be at least 16 characters');
  const clock = opts.clock ?? systemClock;
  const logger = opts.logger ?? createLogger({ name: 'server' });
  if (opts.db === undefined && typeof opts.dbPath !== 'string') throw new Error('give db (sqlite:PATH or postgres://…) or dbPath');
  const host = opts.host ?? '127.0.0.1';
  const loopbackOnly = LOOPBACK_BIND.has(host);
  const allowedHosts = parseAllowedHosts(opts.allowedHosts ?? []);
  // Security invariant: a server reachable from other machines answers only the Host names it was told to.
  if (!loopbackOnly && allowedHosts.size === 0) throw new Error('a non-loopback --host needs --allowed-host NAME (the names clients use to reach this server)');
  // Security invariant: off loopback, credentials travel only over TLS: the server's own, or a proxy's in front (--tls-proxy).
  if (!loopbackOnly && !opts.tls && !opts.tlsProxy) throw new Error('a non-loopback --host needs TLS: --tls-cert/--tls-key, or --tls-proxy when a load balancer in front terminates TLS');
  if (opts.tls && opts.tlsProxy) throw new Error('--tls-proxy is for plain http behind a TLS proxy; it does not go with --tls-cert');
  const store = await openStore(opts.db ?? { kind: 'sqlite', path: opts.dbPath! }, {
    schema: assembleSchema(opts.domains),
    clock,
    onPoolError: (e) => logger.warn({ code: (e as { code?: string }).code }, 'database connection lost'),
    onReconnect: (s) =>
      s.up ? logger.info('database reachable again') : logger.warn({ attempt: s.attempt, nextDelayMs: s.nextDelayMs }, 'database unreachable; reconnecting with backoff'),
  });
  let server: Server | undefined;
  try {
    const proc = new ServerProcess(store, clock, logger);
    await proc.register();
    const domains = await createDomains(opts.domains, store, clock, proc);
    const handler = createRequestHandler({ domains, mounted: opts.domains, adminToken: opts.adminToken, logger, loopbackOnly, allowedHosts, checkDatabase: async () => void (await store.get('SELECT 1 AS ok')), requireForwardedHttps: !loopbackOnly && !opts.tls, ...(opts.maxInFlight ? { maxInFlight: opts.maxInFlight } : {}) });
    let draining = false;
    server = createHardenedServer(
      (req, res) => {
        // Closing: every answer ends its connection, so kept-alive clients move to another server process.
        if (draining) res.setHeader('connection', 'close');
        handler(req, res);
      },
      opts.limits,
      opts.tls,
    );
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(opts.port ?? 0, host, () => {
        server!.off('error', reject);
        resolve();
      });
    });
    const addr = server.address() as AddressInfo;
    const urlHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    const scheme = opts.tls ? 'https' : 'http';
    let purge = clock.setTimer(RECEIPT_PURGE_MS, function tick() {
      domains.receipts.purgeExpired().catch((e) => logger.warn({ err: e }, 'receipt purge failed'));
      purge = clock.setTimer(RECEIPT_PURGE_MS, tick);
    });
    for (const loop of domains.loops) loop.start((e) => logger.warn({ err: e }, 'background pass failed'));
    logger.info({ serverId: domains.meta.serverId, port: addr.port, url: `${scheme}://${urlHost}:${addr.port}` }, 'server listening');
    if (!loopbackOnly && !opts.tls) logger.info({ host }, 'plain http behind a TLS proxy: requests from other machines need X-Forwarded-Proto: https');

    let closing: Promise<void> | undefined;
    const s = server;
    return {
      url: `${scheme}://${urlHost}:${addr.port}`,
      serverId: domains.meta.serverId,
      idle: async () => void (await Promise.all(domains.loops.map((l) => l.idle()))),
      close() {
        closing ??= (async () => {
          purge.cancel();
          draining = true;
          const cut = clock.setTimer(CLOSE_GRACE_MS, () => s.closeAllConnections());
          // Background passes finish (or never start) and connections drain, both before the store closes.
          const loops = Promise.all(domains.loops.map((l) => l.stop()));
          await new Promise<void>((resolve) => {
            s.close(() => resolve());
            s.closeIdleConnections();
          });
          cut.cancel();
          await loops;
          await proc.close();
          await store.close();
        })();
        return closing;
      },
    };
  } catch (e) {
    server?.close();
    await store.close();
    throw e;
  }
}
