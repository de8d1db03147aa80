// Owns the "SDK" baseline: the official MCP SDK's McpServer + StreamableHTTPServerTransport in stateless JSON mode, a fresh
// server and transport per request as the SDK documents for stateless use, behind the same auth checks as the bare baseline.
// One registered tool, message_history_read, does the same ServerClient call as ours.
import { createServer, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import type { ServerApi } from '../../src/server-client/api.js';
import { BaselineAuth, type BaselineConfig, DENIED, matchRoute, serveFromStdin } from './common.js';
import { serverClient } from '../../src/domains/registry.js';

function buildServer(api: ServerApi): McpServer {
  const server = new McpServer({ name: 'agentteam-sdk-baseline', version: '0.0.0' });
  server.registerTool(
    'message_history_read',
    {
      description: 'Read messages of an exact target, newest first.',
      inputSchema: { target: z.string().min(1), limit: z.number().int().min(1).max(100).optional(), cursor: z.string().min(1).optional() },
      annotations: { readOnlyHint: true },
    },
    async (a) => {
      const page = await api.messages.list({ target: a.target, limit: a.limit ?? 20, ...(a.cursor ? { cursor: a.cursor } : {}) });
      const structured = { messages: page.messages, hasMore: page.hasMore, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
      return { content: [{ type: 'text' as const, text: JSON.stringify(structured) }], structuredContent: structured };
    },
  );
  return server;
}

export async function startSdk(cfg: BaselineConfig, port = 0): Promise<Server> {
  const auth = new BaselineAuth(cfg.tokens);
  const client = serverClient({ baseUrl: cfg.serverUrl });
  const apis = new Map<string, ServerApi>(Object.entries(cfg.credentials).map(([id, cred]) => [id, client.as(cred)]));
  const http = createServer(async (req, res) => {
    const route = matchRoute(req.url);
    if (!route || route.kind !== 'mcp') {
      res.writeHead(404).end();
      return;
    }
    if (!auth.allows(req, route)) {
      res.writeHead(403, { 'content-type': 'application/json' }).end(DENIED);
      return;
    }
    try {
      const server = buildServer(apis.get(route.agentId)!);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch {
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  http.on('close', () => client.close());
  await new Promise<void>((r) => http.listen(port, '127.0.0.1', r));
  return http;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await serveFromStdin((cfg) => startSdk(cfg));
