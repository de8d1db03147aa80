// End-to-end: the official MCP SDK client over a real loopback socket → registerMcpRoutes (real store gate) → agentteam tools → real server.
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startToolsFixture, type ToolsFixture, testToolDeps } from '../../tools/agentteam/testkit.js';
import { createAgentteamHandler } from '../../tools/agentteam/handler.js';
import { startMcpFixture, type McpFixture } from './testkit.js';

let tools: ToolsFixture;
let mcp: McpFixture;
const apiCalls: string[] = [];

async function connect(path: string, token = mcp.token): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(mcp.baseUrl + path), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'sdk-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

before(async () => {
  tools = await startToolsFixture();
  mcp = await startMcpFixture({
    handler: createAgentteamHandler(testToolDeps()),
    serverId: tools.srv.server.serverId,
    agentId: tools.agentId,
    workdir: tools.workdir,
    apiFor(info) {
      apiCalls.push(info.authorization.agentId);
      return tools.srv.client.as(tools.agentCredential);
    },
  });
});
after(async () => {
  await mcp.close();
  await tools.stop();
});

test('initialize, ping and listTools through the SDK; identical inventories on both routes', async () => {
  const a = await connect(mcp.path);
  const b = await connect(mcp.legacyPath);
  assert.deepEqual(a.getServerVersion(), { name: 'agentteam', version: '0.1.0-test' });
  assert.deepEqual(a.getServerCapabilities(), { tools: { listChanged: false } });
  assert.deepEqual(await a.ping(), {});
  const la = await a.listTools();
  const lb = await b.listTools();
  assert.deepEqual(la, lb);
  // Deterministic order: by name, whatever order the handler registers its tools in.
  assert.deepEqual(la.tools.map((t) => t.name), ['kb_fetch', 'kb_search', 'memory_search', 'message_attachment_read', 'message_history_read', 'message_react', 'message_send']);
  for (const t of la.tools) assert.equal(typeof t.annotations?.readOnlyHint, 'boolean');
  await a.close();
  await b.close();
});

test('callTool for every tool through the SDK, with output schemas validated by the client', async () => {
  const c = await connect(mcp.path);
  await c.listTools(); // the SDK validates structuredContent against outputSchema only for listed tools
  writeFileSync(join(tools.workdir, 'note.md'), '# note\n');
  const sent = await c.callTool({ name: 'message_send', arguments: { target: 'channel:general', content: 'via sdk', attachments: ['note.md'] } });
  assert.equal(sent.isError, undefined);
  const id = (sent.structuredContent as { id: string }).id;
  const hist = await c.callTool({ name: 'message_history_read', arguments: { target: 'channel:general', limit: 1 } });
  const msg = (hist.structuredContent as { messages: Array<{ id: string; content: string; files: Array<{ id: string }> }> }).messages[0]!;
  assert.equal(msg.id, id);
  assert.equal(msg.content, 'via sdk');
  const reacted = await c.callTool({ name: 'message_react', arguments: { messageId: id, emoji: '✅' } });
  assert.deepEqual((reacted.structuredContent as { reactions: Record<string, number> }).reactions, { '✅': 1 });
  const att = await c.callTool({ name: 'message_attachment_read', arguments: { attachmentId: msg.files[0]!.id } });
  const path = (att.structuredContent as { path: string }).path;
  assert.equal(readFileSync(join(tools.workdir, path), 'utf8'), '# note\n');
  // A model-caused failure is a tool result the client accepts (isError with structured {code, message, hint?}).
  const bad = await c.callTool({ name: 'message_send', arguments: { target: 'nowhere', content: 'x' } });
  assert.equal(bad.isError, true);
  assert.equal((bad.structuredContent as { code: string }).code, 'invalid_input');
  // An unknown tool is a JSON-RPC -32602 error.
  await assert.rejects(c.callTool({ name: 'task_create', arguments: {} }), (e: { code?: number }) => e.code === -32602);
  assert.ok(apiCalls.length >= 4 && apiCalls.every((a) => a === tools.agentId));
  await c.close();
});

test('the SDK client is refused with a wrong credential', async () => {
  await assert.rejects(connect(mcp.path, 'atm_not_a_real_token'), /403|forbidden/i);
});
