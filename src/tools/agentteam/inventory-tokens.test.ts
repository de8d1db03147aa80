// Measures the context cost of the agentteam inventory: the tools/list response as the MCP route sends it, in o200k tokens.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { rawRequest, startMcpFixture, type McpFixture } from '../../wire/mcp/testkit.js';
import { createAgentteamHandler } from './handler.js';

/** The whole inventory, with the two knowledge tools still to come, stays within this (issue: ≤ 1,200 for seven tools). */
const INVENTORY_BUDGET = 1200;
/** Today's five tools leave room for kb_search and kb_fetch (~100 each) under the same budget. */
const FIVE_TOOL_BUDGET = 1000;

let fx: McpFixture;
before(async () => {
  fx = await startMcpFixture({ handler: createAgentteamHandler() });
});
after(() => fx.close());

test('the tools/list response, as sent on the MCP route, is within the token budget (o200k, gpt-tokenizer)', async () => {
  const r = await rawRequest(fx.port, {
    path: fx.path,
    headers: { authorization: `Bearer ${fx.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  assert.equal(r.status, 200);
  const tools = (JSON.parse(r.body) as { result: { tools: { name: string }[] } }).result.tools;
  assert.ok(tools.some((t) => t.name === 'memory_search'));
  const tokens = encode(r.body).length;
  assert.ok(tokens <= INVENTORY_BUDGET, `tools/list is ${tokens} tokens`);
  if (tools.length <= 5) assert.ok(tokens <= FIVE_TOOL_BUDGET, `${tools.length} tools take ${tokens} tokens; leave room for the knowledge tools`);
});
