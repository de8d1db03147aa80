// Fuzzes the MCP endpoint over a real socket (real store gate, real tools, real server): no crash, no 5xx, no oversized response.
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { createAgentteamHandler } from '../../tools/agentteam/handler.js';
import { startToolsFixture, type ToolsFixture, testToolDeps } from '../../tools/agentteam/testkit.js';
import { RESULT_BUDGET_BYTES } from './resultbudget/budget.js';
import { startMcpFixture, type McpFixture } from './testkit.js';

/** The result budget plus the JSON-RPC envelope (id ≤ 256 chars, escaped) and SSE framing. */
const MAX_RESPONSE = RESULT_BUDGET_BYTES + 2048;
const RUNS = 2500;

let tools: ToolsFixture;
let mcp: McpFixture;
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

before(async () => {
  tools = await startToolsFixture();
  mcp = await startMcpFixture({
    handler: createAgentteamHandler(testToolDeps()),
    serverId: tools.srv.server.serverId,
    agentId: tools.agentId,
    workdir: tools.workdir,
    apiFor: () => tools.srv.client.as(tools.agentCredential),
  });
});
after(async () => {
  agent.destroy();
  await mcp.close();
  await tools.stop();
});

function send(path: string, headers: Record<string, string>, body: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: mcp.port, method: 'POST', path, headers, agent }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const printable = fc.stringMatching(/^[\x20-\x7e]{0,40}$/);
const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 3 });
const toolName = fc.oneof(fc.constantFrom('message_send', 'message_history_read', 'message_react', 'message_attachment_read', 'nope'), fc.string({ maxLength: 20 }));
const target = fc.oneof(fc.constantFrom('channel:general', ' CHANNEL:general ', 'channel:nope', 'thread:general/msg_x', 'dm:x', 'task:t'), fc.string({ maxLength: 30 }));
const toolArgs = fc.oneof(
  fc.record({ target, content: fc.oneof(fc.string({ maxLength: 50 }), fc.string({ unit: 'binary', minLength: 7990, maxLength: 8010 })), replyTo: optional(fc.string({ maxLength: 10 })), attachments: optional(fc.array(fc.string({ maxLength: 20 }), { maxLength: 5 })) }, { requiredKeys: [] }),
  fc.record({ target, limit: optional(fc.oneof(fc.integer({ min: -5, max: 120 }), fc.double())), cursor: optional(fc.string({ maxLength: 40 })) }, { requiredKeys: [] }),
  fc.record({ messageId: fc.string({ maxLength: 20 }), emoji: fc.string({ maxLength: 5 }), remove: optional(fc.boolean()) }, { requiredKeys: [] }),
  fc.record({ attachmentId: fc.oneof(fc.string({ maxLength: 20 }), fc.constant('../../etc/passwd')) }),
  fc.anything(),
);
const params = fc.oneof(fc.constant(undefined), fc.record({ name: toolName, arguments: optional(toolArgs) }, { requiredKeys: [] }), fc.record({ protocolVersion: fc.oneof(fc.constantFrom('2025-03-26', '2025-06-18', '2025-11-25'), fc.string({ maxLength: 12 })) }), fc.anything());
const message = fc.record(
  {
    jsonrpc: fc.oneof({ weight: 9, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: fc.anything() }),
    id: fc.oneof({ weight: 6, arbitrary: fc.integer() }, { weight: 2, arbitrary: fc.string({ maxLength: 300 }) }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.double() }),
    method: fc.oneof(fc.constantFrom('initialize', 'ping', 'tools/list', 'tools/call', 'notifications/initialized', 'resources/list'), fc.string({ maxLength: 20 })),
    params,
    result: fc.anything(),
    error: fc.anything(),
  },
  { requiredKeys: [] },
).map((m) => (Math.abs(JSON.stringify(m).length % 7) < 5 ? { ...m, result: undefined, error: undefined } : m));
const body = fc.oneof(
  { weight: 6, arbitrary: message.map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.array(message, { maxLength: 3 }).map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.json() },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
);
const headerSet = fc.record({
  contentType: fc.oneof({ weight: 20, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') }, { weight: 1, arbitrary: fc.constant('text/plain') }, { weight: 1, arbitrary: printable }, { weight: 1, arbitrary: fc.constant(undefined) }),
  accept: fc.oneof(fc.constantFrom('application/json, text/event-stream', 'text/event-stream', '*/*', 'text/html', 'application/json;q=0.1, text/event-stream'), printable, fc.constant(undefined)),
  version: fc.oneof({ weight: 10, arbitrary: fc.constant(undefined) }, { weight: 10, arbitrary: fc.constantFrom('2025-03-26', '2025-06-18', '2025-11-25') }, { weight: 1, arbitrary: printable }),
  origin: fc.oneof({ weight: 20, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('http://localhost:3000', 'https://evil.example', 'null') }, { weight: 1, arbitrary: printable }),
  auth: fc.oneof({ weight: 20, arbitrary: fc.constant('valid') }, { weight: 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: printable }),
  legacy: fc.boolean(),
});

test(`fuzz: ${RUNS} bodies and header sets never crash, never 5xx, never exceed the budget + envelope`, async (t) => {
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(headerSet, body, async (h, b) => {
      const headers: Record<string, string> = {};
      if (h.contentType !== undefined) headers['content-type'] = h.contentType;
      if (h.accept !== undefined) headers.accept = h.accept;
      if (h.version !== undefined) headers['mcp-protocol-version'] = h.version;
      if (h.origin !== undefined) headers.origin = h.origin;
      if (h.auth === 'valid') headers.authorization = `Bearer ${mcp.token}`;
      else if (h.auth !== undefined) headers.authorization = h.auth;
      const r = await send(h.legacy ? mcp.legacyPath : mcp.path, headers, b);
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      assert.ok(r.status >= 200 && r.status < 500, `status ${r.status}`);
      assert.ok(r.bytes <= MAX_RESPONSE, `response of ${r.bytes} bytes`);
    }),
    { numRuns: RUNS },
  );
  t.diagnostic(`statuses ${JSON.stringify([...statuses])}`);
  // The run exercised real dispatch, not only refusals, and the server is still healthy.
  assert.ok((statuses.get(200) ?? 0) > 100, JSON.stringify([...statuses]));
  assert.ok((statuses.get(403) ?? 0) > 0 && (statuses.get(400) ?? 0) > 0);
  const ok = await send(mcp.path, { 'content-type': 'application/json', authorization: `Bearer ${mcp.token}` }, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
  assert.equal(ok.status, 200);
});
