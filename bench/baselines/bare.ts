// Owns the "bare" baseline: a plain node:http JSON-RPC + Exec server with the daemon's auth checks and nothing else (the practical ceiling).
// What it does: loopback + keyed-hash bearer + path binding (BaselineAuth); reads the body and JSON.parse; answers ping and
// tools/list with canned JSON (the same agentteam inventory bytes the daemon lists); tools/call message_history_read and Exec
// task/list call the same embedded server through ServerClient. What it skips: admission/leases, revocation fences,
// protocol-version/Accept/content-type negotiation, schema validation, result budgets and model-visible projection.
import { createServer, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { createAgentteamHandler } from '../../src/tools/agentteam/handler.js';
import { testToolDeps } from '../../src/tools/agentteam/testkit.js';
import type { ServerApi } from '../../src/server-client/api.js';
import type { TaskStatus } from '../../src/domains/task/contract.js';
import { BaselineAuth, type BaselineConfig, DENIED, matchRoute, readAll, serveFromStdin } from './common.js';
import { serverClient } from '../../src/domains/registry.js';

function send(res: import('node:http').ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export async function startBare(cfg: BaselineConfig, port = 0): Promise<Server> {
  const auth = new BaselineAuth(cfg.tokens);
  const client = serverClient({ baseUrl: cfg.serverUrl });
  const apis = new Map<string, ServerApi>(Object.entries(cfg.credentials).map(([id, cred]) => [id, client.as(cred)]));
  const toolsList = JSON.stringify({ tools: createAgentteamHandler(testToolDeps()).tools() });
  const rpc = (id: unknown, result: string) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`;

  const server = createServer(async (req, res) => {
    try {
      const route = matchRoute(req.url);
      if (!route || req.method !== 'POST') return send(res, 404, '{"ok":false,"error":{"code":"not_found","message":"no route"}}');
      if (!auth.allows(req, route)) return send(res, 403, DENIED);
      const api = apis.get(route.agentId)!;
      const body = JSON.parse((await readAll(req)).toString('utf8') || '{}') as Record<string, any>;
      if (route.kind === 'exec') {
        if (route.domain !== 'task' || route.action !== 'list') return send(res, 404, '{"ok":false,"error":{"code":"not_found","message":"no action"}}');
        const q: { limit?: number; cursor?: string; status?: TaskStatus } = {};
        if (body.limit !== undefined) q.limit = body.limit;
        if (body.cursor !== undefined) q.cursor = body.cursor;
        if (body.filters?.status !== undefined) q.status = body.filters.status;
        const page = await api.tasks.list(q);
        return send(res, 200, JSON.stringify({ ok: true, data: page }));
      }
      switch (body.method) {
        case 'ping':
          return send(res, 200, rpc(body.id, '{}'));
        case 'tools/list':
          return send(res, 200, rpc(body.id, toolsList));
        case 'tools/call': {
          const a = body.params?.arguments ?? {};
          const page = await api.messages.list({ target: a.target, limit: a.limit ?? 20, ...(a.cursor ? { cursor: a.cursor } : {}) });
          const structured = { messages: page.messages, hasMore: page.hasMore, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
          return send(res, 200, rpc(body.id, JSON.stringify({ content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured })));
        }
        default:
          return send(res, 200, `{"jsonrpc":"2.0","id":${JSON.stringify(body.id ?? null)},"error":{"code":-32601,"message":"method not found"}}`);
      }
    } catch {
      if (!res.headersSent) send(res, 500, '{"ok":false,"error":{"code":"internal","message":"internal error"}}');
    }
  });
  server.on('close', () => client.close());
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await serveFromStdin((cfg) => startBare(cfg));
