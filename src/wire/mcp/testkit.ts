// Owns fixtures for MCP tests: a real node:http server with registerMcpRoutes behind the real RuntimeAuthorizationStore.
import { mkdtempSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RuntimeAuthorizationStore } from '../../authz/store.js';
import type { TokenInfo } from '../../authz/types.js';
import type { ServerApi } from '../../server-client/api.js';
import { FakeClock } from '../../shared/clock.js';
import { createLogger, RateLimitedLogger } from '../../shared/log.js';
import { Router } from '../http/router.js';
import type { McpHandler } from './handler.js';
import { registerMcpRoutes, type McpRouteDeps } from './routes.js';

export interface McpFixture {
  baseUrl: string;
  port: number;
  store: RuntimeAuthorizationStore;
  /** Route of the bound agent on the canonical family. */
  path: string;
  legacyPath: string;
  token: string;
  authorizationId: string;
  workdir: string;
  close(): Promise<void>;
}

export interface McpFixtureOptions {
  handler: McpHandler;
  apiFor?: (info: TokenInfo) => ServerApi;
  serverId?: string;
  agentId?: string;
  workdir?: string;
  runtimeKind?: string;
  turnOf?: McpRouteDeps['turnOf'];
  fault?: McpRouteDeps['fault'];
  /** Log to <logDir>/mcp-test.log (disabled by default). */
  logDir?: string;
}

const noApi = (): ServerApi => {
  throw new Error('no server api in this fixture');
};

export async function startMcpFixture(opts: McpFixtureOptions): Promise<McpFixture> {
  const home = mkdtempSync(join(tmpdir(), 'mcp-'));
  const clock = new FakeClock();
  const log = createLogger({ name: 'mcp-test', ...(opts.logDir ? { dir: opts.logDir } : {}) });
  const store = new RuntimeAuthorizationStore({ clock, credentialsDir: join(home, 'run', 'credentials'), log, random: () => 0.5 });
  const serverId = opts.serverId ?? 'srv_1';
  const agentId = opts.agentId ?? 'agent_1';
  const workdir = opts.workdir ?? mkdtempSync(join(tmpdir(), 'mcp-work-'));
  const active = await store.activate({
    serverId,
    agentId,
    sessionId: 'sess_1',
    runId: 'run_1',
    workdir,
    processGeneration: 1,
    runtimeKind: opts.runtimeKind ?? 'claude',
    catalog: { version: 'v1', actions: new Map() },
  });
  const router = new Router();
  registerMcpRoutes(router, { gate: store, diag: new RateLimitedLogger(log, clock), log, handler: opts.handler, apiFor: opts.apiFor ?? noApi, version: '0.1.0-test', ...(opts.turnOf ? { turnOf: opts.turnOf } : {}), ...(opts.fault ? { fault: opts.fault } : {}) });
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const m = router.match(req.method ?? 'GET', path);
    if (m.kind === 'found') return void Promise.resolve(m.handler(req, res, m.params)).catch(() => res.destroy());
    res.writeHead(m.kind === 'not_found' ? 404 : 405);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    store,
    path: `/api/internal/mcp/servers/${serverId}/agents/${agentId}`,
    legacyPath: `/mcp/agentteam/${serverId}/${agentId}`,
    token: active.mcpToken,
    authorizationId: active.info.id,
    workdir,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request over loopback; `body` may be a string or a list of chunks written `gapMs` apart. */
export function rawRequest(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer; chunks?: Buffer[]; gapMs?: number },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: opts.method ?? 'POST', path: opts.path, headers: opts.headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (opts.chunks) {
      let i = 0;
      const next = () => {
        if (req.destroyed) return;
        if (i >= opts.chunks!.length) return void req.end();
        req.write(opts.chunks![i++]);
        setTimeout(next, opts.gapMs ?? 0).unref();
      };
      next();
    } else req.end(opts.body);
  });
}
