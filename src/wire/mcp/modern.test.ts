// Tests MCP 2026-07-28 beside the 2025 revisions over real loopback sockets: discover, _meta, headers, resultType, cache hints, no leaks.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createAgentteamHandler } from '../../tools/agentteam/handler.js';
import { DENIED_BODY } from '../http/guard.js';
import type { McpHandler } from './handler.js';
import { selectEra } from './modern.js';
import { createToolNamer } from './naming.js';
import { MAX_INSTRUCTIONS_BYTES } from './protocol.js';
import { toolResult } from './resultbudget/budget.js';
import { rawRequest, startMcpFixture, type McpFixture } from './testkit.js';

const V = '2026-07-28';
const ALL = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
const META = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' } };
let fx: McpFixture;
let opencode: McpFixture;

/** The real inventory and skill doc; tool calls answer without a server. */
function handler(): McpHandler {
  const real = createAgentteamHandler();
  return { ...real, callTool: async (_ctx, _agent, name) => toolResult({ tool: name }) };
}

before(async () => {
  fx = await startMcpFixture({ handler: handler() });
  opencode = await startMcpFixture({ handler: handler(), runtimeKind: 'opencode' });
});
after(async () => {
  await fx.close();
  await opencode.close();
});

function modernHeaders(method: string, extra: Record<string, string> = {}): Record<string, string> {
  return { 'mcp-protocol-version': V, 'mcp-method': method, ...extra };
}

async function rpc(f: McpFixture, msg: unknown, extra: Record<string, string>, token = f.token) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra };
  const r = await rawRequest(f.port, { path: f.path, headers, body: JSON.stringify(msg) });
  return { ...r, json: r.body ? (JSON.parse(r.body) as Record<string, any>) : undefined };
}

const modern = (f: McpFixture, id: number | string, method: string, params: Record<string, unknown> = {}, extra: Record<string, string> = {}) =>
  rpc(f, { jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }, modernHeaders(method, extra));

test('server/discover lists every revision, the tools capability, cache hints, resultType and serverInfo', async () => {
  const r = await modern(fx, 'd1', 'server/discover');
  assert.equal(r.status, 200);
  assert.equal(r.json!.id, 'd1');
  const d = r.json!.result;
  assert.deepEqual(d.supportedVersions, ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']);
  assert.deepEqual(d.capabilities, { tools: { listChanged: false } });
  assert.equal(d.resultType, 'complete');
  assert.equal(d.ttlMs, 3_600_000);
  assert.equal(d.cacheScope, 'private');
  assert.deepEqual(d._meta['io.modelcontextprotocol/serverInfo'], { name: 'agentteam', version: '0.1.0-test' });
});

test('instructions: the skill doc, identical in initialize and server/discover, ≤ 2 KB, naming exactly the complete inventory', async () => {
  for (const [f, kind] of [[fx, 'claude'], [opencode, 'opencode']] as const) {
    const d = (await modern(f, 1, 'server/discover')).json!.result.instructions as string;
    const init = await rpc(f, { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }, { 'mcp-protocol-version': '2025-06-18' });
    assert.equal(init.json!.result.instructions, d);
    assert.ok(Buffer.byteLength(d) <= MAX_INSTRUCTIONS_BYTES, `${Buffer.byteLength(d)} bytes`);
    const names = ((await modern(f, 3, 'tools/list')).json!.result.tools as { name: string }[]).map((t) => t.name);
    const namer = createToolNamer(kind, names);
    assert.equal(d, createAgentteamHandler().skillDoc(namer));
    for (const n of names) assert.ok(d.includes(`\`${namer.toModel(n)}\``), `${n} is named in the ${kind} instructions`);
    const mentioned = new Set([...d.matchAll(/`((?:mcp__agentteam__|agentteam_)[a-z_]+)`/g)].map((m) => namer.fromModel(m[1]!)?.tool));
    assert.deepEqual([...mentioned].sort(), names);
  }
});

test('tools/list: same tools as 2025, sorted, with ttlMs, cacheScope and resultType only in 2026', async () => {
  const m = (await modern(fx, 4, 'tools/list')).json!.result;
  const l = (await rpc(fx, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, { 'mcp-protocol-version': '2025-11-25' })).json!.result;
  assert.deepEqual(m.tools, l.tools);
  assert.deepEqual(m.tools.map((t: { name: string }) => t.name), [...m.tools.map((t: { name: string }) => t.name)].sort());
  assert.equal(m.ttlMs, 3_600_000);
  assert.equal(m.cacheScope, 'public');
  assert.equal(m.resultType, 'complete');
  assert.deepEqual(Object.keys(l), ['tools']);
});

test('tools/call: resultType complete in 2026 and absent in 2025; Mcp-Name checked against params.name', async () => {
  const args = { name: 'message_send', arguments: { target: 'channel:general', content: 'x' } };
  const m = await modern(fx, 5, 'tools/call', args, { 'mcp-name': 'message_send' });
  assert.equal(m.status, 200);
  assert.deepEqual(m.json!.result, { resultType: 'complete', content: [{ type: 'text', text: '{"tool":"message_send"}' }], structuredContent: { tool: 'message_send' } });
  const l = await rpc(fx, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: args }, { 'mcp-protocol-version': '2025-06-18', 'mcp-method': 'not/checked', 'mcp-name': 'nor_this' });
  assert.deepEqual(l.json!.result, { content: [{ type: 'text', text: '{"tool":"message_send"}' }], structuredContent: { tool: 'message_send' } });
  // Surrounding whitespace is not part of a header value, and the base64 sentinel is decoded.
  const ws = await modern(fx, 6, 'tools/call', args, { 'mcp-method': ' tools/call\t', 'mcp-name': `=?base64?${Buffer.from('message_send').toString('base64')}?=` });
  assert.equal(ws.status, 200, ws.body);
  for (const [name, why] of [['message_react', 'mismatch'], [undefined, 'missing'], ['=?base64?!!?=', 'bad sentinel']] as const) {
    const r = await rpc(fx, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { ...args, _meta: META } }, modernHeaders('tools/call', name === undefined ? {} : { 'mcp-name': name }));
    assert.equal(r.status, 400, why);
    assert.equal(r.json!.id, 7);
    assert.equal(r.json!.error.code, -32020);
  }
});

test('Mcp-Method and MCP-Protocol-Version must match the body: 400 with -32020 and the request id', async () => {
  const cases: Record<string, string>[] = [{ 'mcp-protocol-version': V, 'mcp-method': 'tools/call' }, { 'mcp-protocol-version': V }, { 'mcp-method': 'tools/list' }, { 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/list' }];
  for (const h of cases) {
    const r = await rpc(fx, { jsonrpc: '2.0', id: 'x9', method: 'tools/list', params: { _meta: META } }, h);
    assert.equal(r.status, 400, JSON.stringify(h));
    assert.deepEqual([r.json!.id, r.json!.error.code], ['x9', -32020]);
  }
});

test('_meta missing or malformed: -32602 with the request id; a claimed 2025 revision is unsupported (-32022)', async () => {
  const bad = [undefined, {}, { ...META, 'io.modelcontextprotocol/protocolVersion': 7 }, { 'io.modelcontextprotocol/protocolVersion': V }, { ...META, 'io.modelcontextprotocol/clientCapabilities': [] }, { ...META, 'io.modelcontextprotocol/clientInfo': { name: 1 } }, { ...META, 'io.modelcontextprotocol/logLevel': 'loud' }, 'x'];
  for (const meta of bad) {
    const r = await rpc(fx, { jsonrpc: '2.0', id: 11, method: 'tools/list', params: meta === undefined ? {} : { _meta: meta } }, modernHeaders('tools/list'));
    assert.equal(r.status, 400, JSON.stringify(meta));
    assert.deepEqual([r.json!.id, r.json!.error.code], [11, -32602], JSON.stringify(meta));
  }
  const old = { ...META, 'io.modelcontextprotocol/protocolVersion': '2025-06-18' };
  const r = await rpc(fx, { jsonrpc: '2.0', id: 12, method: 'tools/list', params: { _meta: old } }, { 'mcp-protocol-version': '2025-06-18', 'mcp-method': 'tools/list' });
  assert.equal(r.status, 400);
  assert.deepEqual(r.json!.error, { code: -32022, message: 'unsupported protocol version', data: { supported: ALL, requested: '2025-06-18' } });
  assert.equal(r.json!.id, 12);
});

test('an unsupported MCP-Protocol-Version: 400 -32022 with the request id, every discovered revision, and the requested one', async () => {
  const supported = (await modern(fx, 'd', 'server/discover')).json!.result.supportedVersions;
  assert.deepEqual(supported, ALL);
  const bodyAndHeader = await rpc(fx, { jsonrpc: '2.0', id: 301, method: 'server/discover', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' } } }, modernHeaders('server/discover', { 'mcp-protocol-version': 'v999.0.0' }));
  const legacyBody = await rpc(fx, { jsonrpc: '2.0', id: 'p', method: 'ping' }, { 'mcp-protocol-version': '2024-11-05' });
  for (const [r, id, requested] of [[bodyAndHeader, 301, 'v999.0.0'], [legacyBody, 'p', '2024-11-05']] as const) {
    assert.equal(r.status, 400, r.body);
    assert.deepEqual(r.json, { jsonrpc: '2.0', id, error: { code: -32022, message: 'unsupported protocol version', data: { supported, requested } } });
  }
  // A notification has no id to carry; the echo of the requested revision is bounded.
  const n = await rpc(fx, { jsonrpc: '2.0', method: 'notifications/cancelled' }, { 'mcp-protocol-version': 'x'.repeat(500) });
  assert.equal(n.status, 400);
  assert.deepEqual([n.json!.id, n.json!.error.code, n.json!.error.data.requested], [null, -32022, 'x'.repeat(64)]);
  // Auth still comes first: a wrong token gets the one generic 403, whatever the version.
  const denied = await rpc(fx, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': 'v999.0.0' }, 'atm_wrong');
  assert.deepEqual([denied.status, denied.body], [403, DENIED_BODY.toString()]);
});

test('2026 serves only server/discover, tools/list and tools/call: any other method is HTTP 404 with -32601 and the id', async () => {
  for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'resources/list', 'no/such/method']) {
    const params = method === 'logging/setLevel' ? { level: 'info' } : method.startsWith('resources/') ? { uri: 'test://x' } : {};
    const r = await modern(fx, `m-${method}`, method, params);
    assert.equal(r.status, 404, method);
    assert.deepEqual(r.json, { jsonrpc: '2.0', id: `m-${method}`, error: { code: -32601, message: 'method not found' } }, method);
  }
});

test('2025 keeps its methods and its 200 for an unknown one; it has no server/discover', async () => {
  const d = await rpc(fx, { jsonrpc: '2.0', id: 14, method: 'server/discover' }, { 'mcp-protocol-version': '2025-11-25' });
  assert.deepEqual([d.status, d.json!.id, d.json!.error.code], [200, 14, -32601]);
  const p = await rpc(fx, { jsonrpc: '2.0', id: 15, method: 'ping' }, { 'mcp-method': 'tools/list' });
  assert.deepEqual([p.status, p.json], [200, { jsonrpc: '2.0', id: 15, result: {} }]);
  const init = await rpc(fx, { jsonrpc: '2.0', id: 16, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }, { 'mcp-protocol-version': '2025-11-25' });
  assert.deepEqual([init.status, init.json!.result.protocolVersion], [200, '2025-11-25']);
  const u = await rpc(fx, { jsonrpc: '2.0', id: 17, method: 'logging/setLevel', params: { level: 'info' } }, { 'mcp-protocol-version': '2025-06-18' });
  assert.deepEqual([u.status, u.json!.id, u.json!.error.code], [200, 17, -32601]);
});

test('2026 notifications: 202, or 400 when Mcp-Method disagrees; 2025 notifications never check it', async () => {
  const n = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
  assert.equal((await rpc(fx, n, modernHeaders('notifications/cancelled'))).status, 202);
  const bad = await rpc(fx, n, modernHeaders('tools/list'));
  assert.equal(bad.status, 400);
  assert.equal(bad.json!.error.code, -32020);
  assert.equal((await rpc(fx, n, { 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/list' })).status, 202);
});

test('auth and body rules are unchanged for 2026 requests', async () => {
  const r = await rpc(fx, { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } }, modernHeaders('server/discover'), 'atm_wrong');
  assert.equal(r.status, 403);
  assert.equal(r.body, DENIED_BODY.toString());
  const big = await rpc(fx, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META, pad: 'x'.repeat(1024 * 1024) } }, modernHeaders('tools/list'));
  assert.equal(big.status, 413);
});

test('selectEra: body-first era choice, whitespace-insensitive headers', () => {
  const h = (pv?: string, method?: string, name?: string) => ({ protocolVersion: pv, method, name });
  assert.deepEqual(selectEra(h(undefined), 1, 'tools/list', {}), { era: 'legacy' });
  assert.deepEqual(selectEra(h('2025-06-18', 'x'), 1, 'tools/list', { _meta: { progressToken: 1 } }), { era: 'legacy' });
  assert.deepEqual(selectEra(h(` ${V} `, '\ttools/list '), 1, 'tools/list', { _meta: META }), { era: 'modern' });
  assert.equal(selectEra(h(V, 'tools/list'), 1, 'tools/list', { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': V + ' ' } }).era, 'reject');
});
