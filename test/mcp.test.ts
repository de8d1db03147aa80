// End-to-end: a runtime launched by the daemon talks MCP with the official SDK client and nothing else.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestDaemon, cliJson, http } from './harness.js';

const d = new TestDaemon();
const FIXTURE = join(import.meta.dirname, 'fixtures', 'mcp-runtime.mjs');
const FIXTURE_V2 = join(import.meta.dirname, 'fixtures', 'mcp-runtime-v2.mjs');
let agentId = '';
let serverId = '';

before(async () => {
  await d.start();
  agentId = (await d.addAgent('mcpbot')).id;
  serverId = cliJson(await d.run(['daemon', 'status'])).server.serverId;
  // An owner-only channel the agent is not a member of.
  const r = await http(d.port, 'POST', '/api/daemon/messages', { headers: { authorization: `Bearer ${d.ownerToken()}`, 'content-type': 'application/json', host: `127.0.0.1:${d.port}` }, body: JSON.stringify({ target: 'channel:general', content: 'owner says hi' }) });
  assert.equal(r.status, 201, r.body);
});
after(() => d.dispose());

test('the SDK client in a launched runtime lists the agentteam tools, sends and reads #general, and gets typed failures', async () => {
  const r = await d.run(['runtime', 'start', '--agent', 'mcpbot', '--', process.execPath, FIXTURE, 'hello from mcpbot'], { cwd: join(import.meta.dirname, '..') });
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT'));
  assert.ok(line, r.stdout);
  const out = JSON.parse(line.slice(6));
  assert.equal(out.server.name, 'agentteam');
  assert.deepEqual([...out.tools].sort(), ['kb_fetch', 'kb_search', 'memory_search', 'message_attachment_read', 'message_history_read', 'message_react', 'message_send']);
  assert.equal(out.sent.target, 'channel:general');
  assert.equal(out.history.messages[0].content, 'hello from mcpbot');
  assert.equal(out.history.messages[1].content, 'owner says hi');
  // The compact projection: no author id, target, time, nulls or empty lists; each author's kind once per page.
  assert.deepEqual(Object.keys(out.history.messages[1]).sort(), ['at', 'by', 'content', 'id']);
  assert.match(out.history.messages[0].at, /^\d{8}T\d{6}Z$/, 'the newest message carries its full time');
  assert.equal(out.history.authors[out.history.messages[1].by], 'human');
  assert.equal(out.history.authors[out.history.messages[0].by], 'agent');
  assert.match(out.history.messages[1].id, /^msg[1-9]\d+$/);
  // Every follow-up worked from the shown ids.
  const shownId = out.history.messages[1].id;
  assert.deepEqual(out.react, { id: shownId, reactions: { '👍': 1 } });
  assert.match(out.reply.id, /^msg[1-9]\d+$/);
  assert.equal(out.threadSent.target, `thread:general/${shownId}`);
  assert.deepEqual(out.thread.messages.map((m: { content: string; replyTo?: string }) => [m.content, m.replyTo]), [['in the thread', shownId]]);
  assert.equal(out.page1.hasMore, true);
  assert.equal(out.page1.messages[0].content, 'a reply');
  assert.equal(out.page1.messages[0].replyTo, shownId);
  assert.equal(out.page2.messages[0].content, 'hello from mcpbot');
  assert.ok(out.page1.nextCursor.length <= 120, `cursor is ${out.page1.nextCursor.length} chars`);
  assert.equal(out.denied.isError, true);
  assert.equal(out.denied.structured.code, 'not_found');
  assert.equal(out.bad.isError, true);
  assert.equal(out.unknown, -32602);
  // The owner reads the agent's reply.
  const ls = cliJson(await d.run(['message', 'ls', '--target', 'channel:general']));
  const mine = ls.messages.find((m: { content: string }) => m.content === 'hello from mcpbot');
  assert.equal(mine?.author.name, 'mcpbot');
});

test('the SDK v2 client in a launched runtime negotiates 2026-07-28, discovers, lists and calls every tool', async () => {
  const work = mkdtempSync(join(tmpdir(), 'mcp-v2-'));
  try {
    const r = await d.run(['runtime', 'start', '--agent', 'mcpbot', '--', process.execPath, FIXTURE_V2, 'hello from v2'], { cwd: work });
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT'));
    assert.ok(line, r.stdout);
    const out = JSON.parse(line.slice(6));
    assert.deepEqual([out.era, out.version], ['modern', '2026-07-28']);
    assert.equal(out.server.name, 'agentteam');
    assert.ok(out.discover.supportedVersions.includes('2026-07-28'));
    assert.equal(typeof out.instructions, 'string');
    assert.equal(out.discover.instructions, out.instructions);
    assert.deepEqual([out.discover.ttlMs, out.discover.cacheScope], [3_600_000, 'private']);
    assert.deepEqual(out.tools, [...out.tools].sort());
    for (const t of ['message_attachment_read', 'message_history_read', 'message_react', 'message_send']) {
      assert.ok(out.tools.includes(t), t);
      assert.ok(out.instructions.includes(`mcp__agentteam__${t}`), t);
    }
    assert.equal(out.sent.target, 'channel:general');
    assert.equal(out.history.messages[0].content, 'hello from v2');
    assert.deepEqual(out.reacted.reactions, { '✅': 1 });
    assert.equal(out.attachment, '# v2 note\n');
    assert.deepEqual(out.denied, { isError: true, code: 'not_found' });
    assert.equal(out.unknown, -32602);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('through the daemon, on both routes: an unsupported revision is 400 -32022 with the id and the discovered revisions; 2026 ping is 404', async () => {
  const r = await d.run(['runtime', 'start', '--agent', 'mcpbot', '--', process.execPath, join(import.meta.dirname, 'fixtures', 'mcp-raw-errors.mjs')]);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT'));
  assert.ok(line, r.stdout);
  const routes = JSON.parse(line.slice(6));
  assert.equal(routes.length, 2);
  for (const o of routes) {
    const supported = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
    assert.deepEqual(o.supportedVersions, supported);
    const unsupported = (id: unknown, requested: string) => ({ status: 400, body: { jsonrpc: '2.0', id, error: { code: -32022, message: 'unsupported protocol version', data: { supported, requested } } } });
    assert.deepEqual(o.unsupported, unsupported(301, 'v999.0.0'));
    assert.deepEqual(o.legacyUnsupported, unsupported('old', '2024-11-05'));
    assert.deepEqual(o.modernPing, { status: 404, body: { jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'method not found' } } });
    assert.deepEqual(o.legacyPing, { status: 200, body: { jsonrpc: '2.0', id: 8, result: {} } });
  }
});

test('after the runtime exits its MCP token is dead on both routes, and nothing the daemon wrote holds it', async () => {
  const r = await d.run(['runtime', 'start', '--agent', agentId, '--', 'sh', '-c', 'printf "TOKEN<<%s>>" "$AGENTTEAM_MCP_TOKEN"']);
  const token = /TOKEN<<([^>]+)>>/.exec(r.stdout)![1]!;
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: `127.0.0.1:${d.port}` };
  for (const path of [`/api/internal/mcp/servers/${serverId}/agents/${agentId}`, `/mcp/agentteam/${serverId}/${agentId}`]) {
    const res = await http(d.port, 'POST', path, { headers, body });
    assert.equal(res.status, 403);
    assert.equal(res.headers['www-authenticate'], undefined);
  }
  assert.ok(!d.allText().includes(token));
});
