// Checks the spec's governance of token analysis: its scope is refused on both MCP routes, and it is no Exec action, MCP tool or prompt text.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { AuthGate, Scope, TokenInfo } from '../../authz/types.js';
import { PromptCompiler } from '../../sessions/prompt.js';
import { FakeClock } from '../../shared/clock.js';
import { createLogger, RateLimitedLogger } from '../../shared/log.js';
import { createAgentteamHandler } from '../../tools/agentteam/handler.js';
import { Router } from '../../wire/http/router.js';
import { rawRequest } from '../../wire/mcp/testkit.js';
import { registerMcpRoutes } from '../../wire/mcp/routes.js';
import { builtinCatalog } from '../../domains/registry.js';

const authorization = { id: 'rta_1', serverId: 'srv_1', agentId: 'agent_1', sessionId: 's', runId: 'r', workdir: '/w', processGeneration: 1, runtimeKind: 'claude', catalog: { version: 'v1', actions: new Map() } };
/** A gate that knows two bearers bound to the route's server and agent: one of scope `mcp`, one of scope `token-analysis`. */
const gate: AuthGate = {
  authenticate(secret) {
    const scope: Scope | undefined = secret === 'bearer-mcp' ? 'mcp' : secret === 'bearer-token-analysis' ? 'token-analysis' : undefined;
    if (!scope) return { ok: false, reason: 'unknown' };
    const info: TokenInfo = { scope, generationId: `g-${scope}`, expiresAt: Number.MAX_SAFE_INTEGER, authorization };
    return { ok: true, info };
  },
  acquire: () => ({ signal: new AbortController().signal, live: () => true, release: () => {} }),
};

let port = 0;
const server = createServer();
before(async () => {
  const router = new Router();
  const log = createLogger({ name: 'token-governance-test' });
  const noApi = () => {
    throw new Error('no server api');
  };
  registerMcpRoutes(router, { gate, diag: new RateLimitedLogger(log, new FakeClock()), log, handler: createAgentteamHandler(), apiFor: noApi, version: '0.1.0-test' });
  server.on('request', (req, res) => {
    const m = router.match(req.method ?? 'GET', (req.url ?? '/').split('?')[0]!);
    if (m.kind === 'found') return void Promise.resolve(m.handler(req, res, m.params)).catch(() => res.destroy());
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
after(() => new Promise<void>((r) => server.close(() => r())));

const toolsList = (path: string, bearer: string) =>
  rawRequest(port, {
    path,
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });

test('a token-analysis credential is refused on the canonical and the legacy MCP route with the generic 403; an mcp one on the same binding is served', async () => {
  for (const path of ['/api/internal/mcp/servers/srv_1/agents/agent_1', '/mcp/agentteam/srv_1/agent_1']) {
    const denied = await toolsList(path, 'bearer-token-analysis');
    assert.equal(denied.status, 403, path);
    assert.ok(!denied.body.includes('tools'), 'no inventory leaks with the refusal');
    assert.equal((await toolsList(path, 'bearer-mcp')).status, 200, path);
  }
});

test('token analysis is no MCP tool, no Exec domain, and nothing of it is in a compiled prompt', () => {
  const handler = createAgentteamHandler();
  assert.ok(handler.tools().every((t) => !/token/i.test(t.name)));
  assert.ok(!builtinCatalog().domains().includes('token'));
  const turn = { agentName: 'demo', authorName: 'owner', authorKind: 'human' as const, target: 'channel:general', messageId: 'msg11', content: 'hi' };
  for (const kind of ['claude', 'codex', 'opencode', 'kimi', 'command'] as const) {
    const c = new PromptCompiler(handler).compile(kind, turn);
    assert.ok(!/token analy/i.test(c.stable + c.prompt), kind);
  }
});
