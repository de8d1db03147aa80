// Measures the context cost of the agentteam inventory: the tools/list response as the MCP route sends it, in o200k tokens.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { rawRequest, startMcpFixture, type McpFixture } from '../../wire/mcp/testkit.js';
import { createAgentteamHandler } from './handler.js';

/** The whole seven-tool inventory stays within this (issue 13: ≤ 1,200 o200k tokens). */
const INVENTORY_BUDGET = 1200;
const SEVEN = ['kb_fetch', 'kb_search', 'memory_search', 'message_attachment_read', 'message_history_read', 'message_react', 'message_send'];

let fx: McpFixture;
before(async () => {
  fx = await startMcpFixture({ handler: createAgentteamHandler() });
});
after(() => fx.close());

test('the tools/list response, as sent on the MCP route, is within the token budget (o200k, gpt-tokenizer)', async (t) => {
  const r = await rawRequest(fx.port, {
    path: fx.path,
    headers: { authorization: `Bearer ${fx.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  assert.equal(r.status, 200);
  const tools = (JSON.parse(r.body) as { result: { tools: { name: string }[] } }).result.tools;
  assert.deepEqual(tools.map((x) => x.name).sort(), SEVEN);
  const tokens = encode(r.body).length;
  assert.ok(tokens <= INVENTORY_BUDGET, `tools/list is ${tokens} tokens`);
  t.diagnostic(`tools/list: ${tools.length} tools, ${tokens} o200k tokens`);
});
