// Tests that a tool call sees its runtime's current turn (session metadata) through ToolContext.turn, and nothing once it is cleared.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { SessionMetadata } from '../../sessions/metadata.js';
import type { McpHandler } from './handler.js';
import { rawRequest, startMcpFixture, type McpFixture } from './testkit.js';

const handler: McpHandler = {
  tools: () => [{ name: 'whoami', description: 'current turn', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
  async callTool(ctx) {
    const turn = ctx.turn ?? null;
    return { content: [{ type: 'text', text: JSON.stringify({ turn }) }], structuredContent: { turn } };
  },
  skillDoc: () => '',
  skillDocSplit: () => ({ stable: '', route: '' }),
};

const meta = new SessionMetadata();
let f: McpFixture;
after(() => f?.close());

async function call(): Promise<unknown> {
  const r = await rawRequest(f.port, {
    path: f.path,
    headers: { authorization: `Bearer ${f.token}`, 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
  });
  assert.equal(r.status, 200, r.body);
  return JSON.parse(r.body).result.structuredContent.turn;
}

test("a tool reads its runtime's current turn from session metadata, keyed by the runtime authorization", async () => {
  f = await startMcpFixture({ handler, turnOf: (info) => meta.currentTurn(info) });
  assert.equal(await call(), null);
  const turn = { turnId: 'trn_1', target: 'channel:general', targetType: 'channel' as const, messageId: 'msg_1', authorKind: 'human' as const };
  meta.set(f.authorizationId, turn);
  assert.deepEqual(await call(), turn);
  meta.set('some-other-authorization', { ...turn, target: 'dm:x' });
  assert.deepEqual(await call(), turn);
  meta.clear(f.authorizationId);
  assert.equal(await call(), null);
});
