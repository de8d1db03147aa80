// Tests the MCP Streamable HTTP transport over real loopback sockets with the real RuntimeAuthorizationStore as the gate.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createAgentteamHandler } from '../../tools/agentteam/handler.js';
import { testToolDeps } from '../../tools/agentteam/testkit.js';
import { DENIED_BODY } from '../http/guard.js';
import type { McpHandler } from './handler.js';
import { RESULT_BUDGET_BYTES, toolResult } from './resultbudget/budget.js';
import { rawRequest, startMcpFixture, type McpFixture } from './testkit.js';

let fx: McpFixture;
let revokingFx: McpFixture;
let spyFx: McpFixture;
const calls: string[] = [];

/** A second handler implementing the contract, to exercise transport paths the real tools never take. */
function spyHandler(): McpHandler {
  const real = createAgentteamHandler(testToolDeps());
  return {
    tools: () => [...real.tools(), { name: 'explode', description: 'throws', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }, { name: 'huge', description: 'big', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
    async callTool(_ctx, agentId, name) {
      calls.push(`${agentId}:${name}`);
      if (name === 'explode') throw new Error('secret-cause /home/x/token atm_abc');
      if (name === 'huge') return toolResult({ blob: 'x'.repeat(RESULT_BUDGET_BYTES) });
      return toolResult({ ok: true });
    },
    skillDoc: () => '',
    skillDocSplit: () => ({ stable: '', route: '' }),
  };
}

before(async () => {
  fx = await startMcpFixture({ handler: createAgentteamHandler(testToolDeps()) });
  spyFx = await startMcpFixture({ handler: spyHandler() });
  // A handler that revokes its own authorization mid-call, then reports success: the fence must publish nothing.
  const holder: { fx?: McpFixture } = {};
  revokingFx = await startMcpFixture({
    handler: {
      tools: () => [{ name: 'revoke_me', description: 'x', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false } }],
      async callTool() {
        // Not awaited: revocation drains in-flight requests, this one included.
        void holder.fx!.store.revoke(holder.fx!.authorizationId, 'exit');
        return toolResult({ leaked: true });
      },
      skillDoc: () => '',
      skillDocSplit: () => ({ stable: '', route: '' }),
    },
  });
  holder.fx = revokingFx;
});
after(async () => {
  await fx.close();
  await spyFx.close();
  await revokingFx.close();
});

function headers(f: McpFixture, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${f.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra };
}

async function rpc(f: McpFixture, msg: unknown, extra: Record<string, string> = {}, path = f.path) {
  const r = await rawRequest(f.port, { path, headers: headers(f, extra), body: typeof msg === 'string' ? msg : JSON.stringify(msg) });
  return { ...r, json: r.body && r.headers['content-type'] === 'application/json' ? (JSON.parse(r.body) as Record<string, any>) : undefined };
}

test('initialize echoes a supported version, answers the latest otherwise, and issues no session id', async () => {
  for (const [asked, answered] of [['2025-06-18', '2025-06-18'], ['2025-03-26', '2025-03-26'], ['2025-11-25', '2025-11-25'], ['1999-01-01', '2025-11-25']]) {
    const r = await rpc(fx, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    assert.equal(r.status, 200);
    assert.equal(r.json!.result.protocolVersion, answered);
    assert.deepEqual(r.json!.result.serverInfo, { name: 'agentteam', version: '0.1.0-test' });
    assert.deepEqual(r.json!.result.capabilities, { tools: { listChanged: false } });
    assert.equal(r.headers['mcp-session-id'], undefined);
  }
});

test('notifications and responses get 202 with no body; ping answers {}', async () => {
  for (const msg of [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }, { jsonrpc: '2.0', id: 5, result: {} }, { jsonrpc: '2.0', id: 6, error: { code: 1, message: 'x' } }]) {
    const r = await rpc(fx, msg);
    assert.equal(r.status, 202);
    assert.equal(r.body, '');
  }
  const p = await rpc(fx, { jsonrpc: '2.0', id: 'p', method: 'ping' });
  assert.deepEqual(p.json, { jsonrpc: '2.0', id: 'p', result: {} });
});

test('tools/list is byte-identical on the canonical route and the legacy alias', async () => {
  const a = await rpc(fx, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const b = await rpc(fx, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, {}, fx.legacyPath);
  assert.equal(a.status, 200);
  assert.equal(a.body, b.body);
  // Deterministic order: by name, whatever order the handler registers its tools in.
  assert.deepEqual(a.json!.result.tools.map((t: { name: string }) => t.name), ['kb_fetch', 'kb_search', 'memory_search', 'message_attachment_read', 'message_history_read', 'message_react', 'message_send']);
});

test('JSON-RPC error codes: -32700, -32600 (shape and batch), -32601, -32602, -32603 without causes', async () => {
  const parse = await rpc(fx, '{"jsonrpc":"2.0",');
  assert.equal(parse.status, 400);
  assert.deepEqual(parse.json, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
  for (const bad of [{ jsonrpc: '1.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: null, method: 'ping' }, { jsonrpc: '2.0', id: 1, method: 7 }, { jsonrpc: '2.0', id: 1, method: 'ping', params: 3 }, 'null', '42', { jsonrpc: '2.0', id: 1 }]) {
    const r = await rpc(fx, bad);
    assert.equal(r.status, 400, JSON.stringify(bad));
    assert.equal(r.json!.error.code, -32600);
  }
  const batch = await rpc(fx, [{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'ping' }]);
  assert.equal(batch.status, 400);
  assert.equal(batch.json!.error.code, -32600);
  assert.equal(batch.json!.id, null);
  const unknown = await rpc(fx, { jsonrpc: '2.0', id: 3, method: 'resources/list' });
  assert.equal(unknown.json!.error.code, -32601);
  assert.equal(unknown.json!.id, 3);
  for (const params of [{ name: 'no_such_tool', arguments: {} }, { arguments: {} }, { name: 'message_send', arguments: [1] }]) {
    const r = await rpc(fx, { jsonrpc: '2.0', id: 4, method: 'tools/call', params });
    assert.equal(r.status, 200);
    assert.equal(r.json!.error.code, -32602);
  }
  const init = await rpc(fx, { jsonrpc: '2.0', id: 5, method: 'initialize', params: {} });
  assert.equal(init.json!.error.code, -32602);
  const boom = await rpc(spyFx, { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'explode' } });
  assert.deepEqual(boom.json, { jsonrpc: '2.0', id: 6, error: { code: -32603, message: 'internal error' } });
  assert.ok(!boom.body.includes('secret') && !boom.body.includes('atm_'));
});

test('bad arguments are a tool result with isError, not a protocol error', async () => {
  const r = await rpc(fx, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'message_send', arguments: { target: 'channel:general' } } });
  assert.equal(r.json!.result.isError, true);
  assert.equal(r.json!.result.structuredContent.code, 'invalid_input');
  assert.equal(r.json!.result.content[0].text, JSON.stringify(r.json!.result.structuredContent));
});

test('tools/call dispatches with the route agent id on both route families', async () => {
  calls.length = 0;
  await rpc(spyFx, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'message_react', arguments: {} } });
  await rpc(spyFx, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'message_react', arguments: {} } }, {}, spyFx.legacyPath);
  assert.deepEqual(calls, ['agent_1:message_react', 'agent_1:message_react']);
});

test('a result over 64 KiB becomes result_budget_exceeded, never a cut value', async () => {
  const r = await rpc(spyFx, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'huge' } });
  assert.equal(r.status, 200);
  assert.ok(Buffer.byteLength(r.body) <= RESULT_BUDGET_BYTES);
  assert.equal(r.json!.result.isError, true);
  assert.equal(r.json!.result.structuredContent.code, 'result_budget_exceeded');
  assert.ok(typeof r.json!.result.structuredContent.hint === 'string');
});

test('GET and DELETE answer 405 with Allow: POST once authenticated, 403 before', async () => {
  for (const method of ['GET', 'DELETE']) {
    const r = await rawRequest(fx.port, { method, path: fx.path, headers: { authorization: `Bearer ${fx.token}`, accept: 'text/event-stream' } });
    assert.equal(r.status, 405);
    assert.equal(r.headers.allow, 'POST');
    const anon = await rawRequest(fx.port, { method, path: fx.path, headers: { accept: 'text/event-stream' } });
    assert.equal(anon.status, 403);
  }
});

test('MCP-Protocol-Version: supported or absent is served, unsupported is HTTP 400 -32022 carrying the request id', async () => {
  assert.equal((await rpc(fx, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '2025-06-18' })).status, 200);
  assert.equal((await rawRequest(fx.port, { path: fx.path, headers: { authorization: `Bearer ${fx.token}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' })).status, 200);
  for (const v of ['2024-11-05', 'not-a-version', '']) {
    const r = await rpc(fx, { jsonrpc: '2.0', id: `v${v}`, method: 'ping' }, { 'mcp-protocol-version': v });
    assert.equal(r.status, 400, v);
    const e = JSON.parse(r.body) as { id: unknown; error: { code: number; data: { requested: string } } };
    assert.deepEqual([e.id, e.error.code, e.error.data.requested], [`v${v}`, -32022, v]);
  }
});

test('authentication: foreign Origin, missing, wrong and mismatched credentials get the one generic 403', async () => {
  const bodies = [
    await rpc(fx, { jsonrpc: '2.0', id: 1, method: 'ping' }, { origin: 'https://evil.example' }),
    await rpc(fx, { jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization: 'Bearer atm_wrong' }),
    await rawRequest(fx.port, { path: fx.path, headers: { 'content-type': 'application/json' }, body: '{}' }),
    await rpc(fx, { jsonrpc: '2.0', id: 1, method: 'ping' }, {}, '/api/internal/mcp/servers/srv_1/agents/agent_2'),
    await rpc(fx, { jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization: `Bearer ${spyFx.token}x` }),
  ];
  for (const r of bodies) {
    assert.equal(r.status, 403);
    assert.equal(r.body, DENIED_BODY.toString());
    assert.equal(r.headers['www-authenticate'], undefined);
  }
});

test('Content-Type must be application/json (415) and Accept must allow JSON or SSE (406)', async () => {
  assert.equal((await rpc(fx, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'content-type': 'text/plain' })).status, 415);
  assert.equal((await rpc(fx, { jsonrpc: '2.0', id: 1, method: 'ping' }, { accept: 'text/html' })).status, 406);
});

test('SSE framing when the client only allows or prefers text/event-stream; JSON otherwise', async () => {
  for (const accept of ['text/event-stream', 'application/json;q=0.5, text/event-stream']) {
    const r = await rawRequest(fx.port, { path: fx.path, headers: headers(fx, { accept }), body: '{"jsonrpc":"2.0","id":9,"method":"ping"}' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'text/event-stream');
    assert.equal(r.body, 'event: message\ndata: {"jsonrpc":"2.0","id":9,"result":{}}\n\n');
  }
  for (const accept of ['application/json, text/event-stream', '*/*', 'application/json']) {
    const r = await rawRequest(fx.port, { path: fx.path, headers: headers(fx, { accept }), body: '{"jsonrpc":"2.0","id":9,"method":"ping"}' });
    assert.equal(r.headers['content-type'], 'application/json', accept);
  }
});

test('body cap: a declared or streamed body over 1 MiB is 413', async () => {
  const big = Buffer.alloc(1024 * 1024 + 10, 0x20);
  const declared = await rawRequest(fx.port, { path: fx.path, headers: headers(fx, { 'content-length': String(big.length) }), body: big });
  assert.equal(declared.status, 413);
  const chunks = Array.from({ length: 20 }, () => Buffer.alloc(64 * 1024, 0x20));
  const streamed = await rawRequest(fx.port, { path: fx.path, headers: headers(fx, { 'transfer-encoding': 'chunked' }), chunks });
  assert.equal(streamed.status, 413);
});

test('a trickled body that misses the 5 s absolute deadline is 408', async () => {
  const chunks = Array.from({ length: 60 }, () => Buffer.from(' '));
  const r = await rawRequest(fx.port, { path: fx.path, headers: headers(fx, { 'transfer-encoding': 'chunked' }), chunks, gapMs: 100 });
  assert.equal(r.status, 408);
});

test('fence: an authorization revoked during the call publishes nothing but the generic 403', async () => {
  const r = await rpc(revokingFx, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'revoke_me' } });
  assert.equal(r.status, 403);
  assert.equal(r.body, DENIED_BODY.toString());
  const again = await rpc(revokingFx, { jsonrpc: '2.0', id: 2, method: 'ping' });
  assert.equal(again.status, 403);
});

test('revocation while the body is still arriving aborts the read with the generic 403', async () => {
  const f = await startMcpFixture({ handler: createAgentteamHandler(testToolDeps()) });
  try {
    const chunks = [Buffer.from('{"jsonrpc":"2.0",'), ...Array.from({ length: 20 }, () => Buffer.from(' '))];
    const pending = rawRequest(f.port, { path: f.path, headers: headers(f, { 'transfer-encoding': 'chunked' }), chunks, gapMs: 50 });
    // Wait until the request holds its lease (authenticated, body still being read).
    while (f.store.stats().inFlight === 0) await new Promise((r) => setTimeout(r, 5));
    void f.store.revoke(f.authorizationId, 'exit');
    const r = await pending;
    assert.equal(r.status, 403);
    assert.equal(r.body, DENIED_BODY.toString());
  } finally {
    await f.close();
  }
});

test('the legacy alias refuses GET and DELETE the same way', async () => {
  for (const method of ['GET', 'DELETE']) {
    const r = await rawRequest(fx.port, { method, path: fx.legacyPath, headers: { authorization: `Bearer ${fx.token}` } });
    assert.equal(r.status, 405);
  }
});
