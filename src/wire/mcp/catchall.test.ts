// Tests the MCP route's catch-all: an unexpected error answers -32603 with the request id (2025 and 2026), no cause, lease released.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createAgentteamHandler } from '../../tools/agentteam/handler.js';
import { rawRequest, startMcpFixture, type McpFixture } from './testkit.js';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const logDir = mkdtempSync(join(tmpdir(), 'mcp-catchall-'));
let fx: McpFixture;
/** Methods whose dispatch throws (the test-only fault the daemon's composition root never wires). */
const failing = new Set<string>();

before(async () => {
  fx = await startMcpFixture({
    handler: createAgentteamHandler(),
    logDir,
    fault: (method) => {
      if (failing.has(method)) throw new TypeError('secret-cause /home/x/.agentteam/run/credentials atm_abc');
    },
  });
});
after(() => fx.close());

async function post(body: string, extra: Record<string, string> = {}) {
  const headers = { authorization: `Bearer ${fx.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra };
  const r = await rawRequest(fx.port, { path: fx.path, headers, body });
  return { ...r, json: JSON.parse(r.body) as Record<string, unknown> };
}

test('an unexpected error after the body parsed answers -32603 carrying the request id, never the cause', async () => {
  failing.add('ping').add('tools/list');
  try {
    for (const id of [7, 'req-8', 0, -1.5]) {
      const r = await post(JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }));
      assert.equal(r.status, 200);
      assert.deepEqual(r.json, { jsonrpc: '2.0', id, error: { code: -32603, message: 'internal error' } });
      assert.ok(!r.body.includes('secret') && !r.body.includes('atm_') && !r.body.includes('/home'));
    }
    // 2026-07-28: the same id rule on a request that passed the header and _meta checks.
    const m = await post(JSON.stringify({ jsonrpc: '2.0', id: 'm1', method: 'tools/list', params: { _meta: META } }), { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
    assert.deepEqual(m.json, { jsonrpc: '2.0', id: 'm1', error: { code: -32603, message: 'internal error' } });
  } finally {
    failing.clear();
  }
  // The lease of every failed request was released: more requests than the admission limit (32) still get answers.
  for (let i = 0; i < 40; i++) assert.equal((await post(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'ping' }))).status, 200);
  // Security invariant: the log names the error class only.
  const log = readFileSync(join(logDir, 'mcp-test.log'), 'utf8');
  assert.match(log, /"err":"TypeError".*"msg":"mcp request failed"/);
  assert.ok(!log.includes('secret-cause') && !log.includes('atm_'));
});

test('the official SDK client gets the internal error for its own request instead of waiting for an answer', async () => {
  const transport = new StreamableHTTPClientTransport(new URL(fx.baseUrl + fx.path), { requestInit: { headers: { Authorization: `Bearer ${fx.token}` } } });
  const client = new Client({ name: 'catchall-test', version: '1.0.0' });
  await client.connect(transport);
  failing.add('ping');
  try {
    // With "id": null the client cannot match the answer to its request (it rejects the message itself, not with -32603).
    await assert.rejects(client.ping({ timeout: 20_000 }), (e: { code?: number }) => e.code === -32603);
  } finally {
    failing.clear();
    await client.close();
  }
});
