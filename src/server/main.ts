// Owns starting and stopping the AgentTeam Server: open the store (SQLite or PostgreSQL), wire domains, listen on loopback, close cleanly.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock, type Clock } from '../shared/clock.js';
import { createLogger, type Logger } from '../shared/log.js';
import { createHardenedServer, type ListenerLimits } from '../wire/http/listener.js';
import { createDomains } from './app.js';
import { createRequestHandler } from './http/handler.js';
import { openStore } from './store/open.js';

export interface StartServerOptions {
  /** `sqlite:PATH` or `postgres://USER@HOST:PORT/DB`; wins over dbPath. */
  db?: string;
  /** A SQLite file path (the embedded default); same as db `sqlite:PATH`. */
  dbPath?: string;
  host?: string;
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
  close(): Promise<void>;
}

const RECEIPT_PURGE_MS = 60 * 60 * 1000;
const LOOPBACK_BIND = new Set(['127.0.0.1', 'localhost', '::1']);

export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  if (typeof opts.adminToken !== 'string' || opts.adminToken.length < 16) throw new Error('adminToken must be at least 16 characters');
  const clock = opts.clock ?? systemClock;
  const logger = opts.logger ?? createLogger({ name: 'server' });
  if (opts.db === undefined && typeof opts.dbPath !== 'string') throw new Error('give db (sqlite:PATH or postgres://…) or dbPath');
  const store = await openStore(opts.db ?? { kind: 'sqlite', path: opts.dbPath! }, {
    clock,
    onPoolError: (e) => logger.warn({ code: (e as { code?: string }).code }, 'database connection lost; reconnecting on next use'),
  });
  let server: Server | undefined;
  try {
    const domains = await createDomains(store, clock);
    const host = opts.host ?? '127.0.0.1';
    const loopbackOnly = LOOPBACK_BIND.has(host);
    server = createHardenedServer(createRequestHandler({ domains, adminToken: opts.adminToken, logger, loopbackOnly, ...(opts.maxInFlight ? { maxInFlight: opts.maxInFlight } : {}) }), opts.limits);
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(opts.port ?? 0, host, () => {
        server!.off('error', reject);
        resolve();
      });
    });
    const addr = server.address() as AddressInfo;
    const urlHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    let purge = clock.setTimer(RECEIPT_PURGE_MS, function tick() {
      domains.receipts.purgeExpired().catch((e) => logger.warn({ err: e }, 'receipt purge failed'));
      purge = clock.setTimer(RECEIPT_PURGE_MS, tick);
    });
    logger.info({ serverId: domains.meta.serverId, port: addr.port }, 'server listening');
    let closing: Promise<void> | undefined;
    const s = server;
    return {
      url: `http://${urlHost}:${addr.port}`,
      serverId: domains.meta.serverId,
      close() {
        closing ??= (async () => {
          purge.cancel();
          await new Promise<void>((resolve) => {
            s.close(() => resolve());
            s.closeIdleConnections();
          });
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
