// Owns the opt-in suite's stand-in MCP endpoint: the official SDK's McpServer over stateless Streamable HTTP on loopback, bearer required.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export const FIXTURE_TOOL = 'agentteam_probe';

export interface McpFixture {
  url: string;
  /** How many requests arrived with the right bearer, and how many were refused. */
  stats: { authorized: number; refused: number; methods: string[] };
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text ? JSON.parse(text) : undefined);
      } catch (e) {
        reject(e);
      }
    });
    req.on('error', reject);
  });
}

function newMcpServer(): McpServer {
  const server = new McpServer({ name: 'agentteam', version: '0.0.0-fixture' });
  server.registerTool(
    FIXTURE_TOOL,
    { description: 'Fixture tool proving the runtime sees the agentteam MCP inventory.', annotations: { readOnlyHint: true } },
    async () => ({ content: [{ type: 'text', text: 'pong' }] }),
  );
  return server;
}

/** Starts the fixture on 127.0.0.1 at path /mcp; every request must carry `Authorization: Bearer <token>`. */
export async function startMcpFixture(token: string): Promise<McpFixture> {
  const stats = { authorized: 0, refused: 0, methods: [] as string[] };
  const http: Server = createServer(async (req, res) => {
    try {
      if (!req.url?.startsWith('/mcp')) {
        res.writeHead(404).end();
        return;
      }
      // Security invariant (fixture): no bearer, no MCP; the refusal body carries nothing.
      if (req.headers.authorization !== `Bearer ${token}`) {
        stats.refused++;
        res.writeHead(403, { 'content-type': 'application/json' }).end('{"error":"forbidden"}');
        return;
      }
      stats.authorized++;
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      const body = await readBody(req);
      for (const m of Array.isArray(body) ? body : [body]) {
        if (m && typeof m === 'object' && typeof (m as { method?: unknown }).method === 'string') stats.methods.push((m as { method: string }).method);
      }
      const server = newMcpServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch {
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
