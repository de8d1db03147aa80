// Owns Exec test scaffolding: the real server + real RuntimeAuthorizationStore + Exec routes on a loopback node:http server.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { builtinActions, builtinCatalog, DOMAINS } from './registry.js';
import type { BoundAction } from '../wire/exec/action.js';
import { makeStore, sampleInput, type Kit } from '../authz/testkit.js';
import type { ActiveAuthorization } from '../authz/store.js';
import rows from '../catalog/action-inventory.json' with { type: 'json' };
import { makeDescriptorCatalog } from '../catalog/catalog.js';
import { buildRuntimeCatalog } from '../catalog/runtime-catalog.js';
import type { ActionDescriptor, InventoryRow } from '../catalog/types.js';
import type { ServerApi } from '../server-client/api.js';
import { startTestServer, type TestServer } from './test-server.js';
import { createLogger, RateLimitedLogger } from '../shared/log.js';
import { Router } from '../wire/http/router.js';
import { registerExecRoutes } from '../wire/exec/routes.js';

export interface ExecHarness {
  server: TestServer;
  kit: Kit;
  auth: ActiveAuthorization;
  agentId: string;
  agentApi: ServerApi;
  /** The Exec base URL (the process authorization root). */
  baseUrl: string;
  token: string;
  post(domain: string, action: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; raw: string }>;
  stop(): Promise<void>;
}

export interface Extra {
  descriptor: ActionDescriptor;
  row: InventoryRow;
  action: BoundAction;
}

export function raw(url: string, init: { method: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<{ status: number; raw: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method, headers: init.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, raw: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** Starts everything; `extras` are test-only actions registered both as handlers and as extension descriptors. */
export async function startExecHarness(extras: Extra[] = [], opts: { bodyDeadlineMs?: number } = {}): Promise<ExecHarness> {
  const server = await startTestServer();
  const created = await server.owner.members.createAgent({ name: 'bot' });
  const agentApi = server.client.as(created.credential);
  const kit = makeStore();
  const log = createLogger({ name: 'exec-test' });
  const catalog = makeDescriptorCatalog([...builtinCatalog().actions, ...extras.map((e) => e.descriptor)], [...(rows as InventoryRow[]), ...extras.map((e) => e.row)], DOMAINS);
  const router = new Router();
  registerExecRoutes(router, {
    gate: kit.store,
    diag: new RateLimitedLogger(log, kit.clock),
    log,
    apiFor: () => agentApi,
    catalog,
    actions: [...builtinActions(), ...extras.map((e) => e.action)],
    ...opts,
  });
  const auth = await kit.store.activate({ ...sampleInput(), serverId: server.server.serverId, agentId: created.agent.id, catalog: buildRuntimeCatalog(builtinCatalog(), extras.map((e) => e.descriptor)) });
  const http: Server = createServer((req, res) => {
    const m = router.match(req.method ?? 'GET', (req.url ?? '/').split('?')[0]!);
    if (m.kind !== 'found') {
      res.writeHead(m.kind === 'not_found' ? 404 : 405).end();
      return;
    }
    Promise.resolve(m.handler(req, res, m.params)).catch(() => res.destroy());
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const port = (http.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}/api/internal/exec/servers/${server.server.serverId}/agents/${created.agent.id}`;
  const token = readFileSync(auth.execTokenFile, 'utf8');
  return {
    server,
    kit,
    auth,
    agentId: created.agent.id,
    agentApi,
    baseUrl,
    token,
    async post(domain, action, body, headers = {}) {
      const r = await raw(`${baseUrl}/${domain}/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      let parsed: unknown;
      try {
        parsed = JSON.parse(r.raw);
      } catch {
        parsed = undefined;
      }
      return { status: r.status, body: parsed, raw: r.raw };
    },
    async stop() {
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
      await kit.store.shutdown(1000);
      await server.stop();
    },
  };
}
