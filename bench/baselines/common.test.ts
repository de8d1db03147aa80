// Tests the baselines' auth and routing: the same denials as the daemon (loopback, unknown token, scope, path binding), on real sockets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { http } from '../../test/harness.js';
import { startBare } from './bare.js';
import { matchRoute } from './common.js';

test('matchRoute knows the canonical and legacy MCP routes and the Exec action route only', () => {
  assert.deepEqual(matchRoute('/api/internal/mcp/servers/s1/agents/a1'), { kind: 'mcp', serverId: 's1', agentId: 'a1' });
  assert.deepEqual(matchRoute('/mcp/agentteam/s1/a1'), { kind: 'mcp', serverId: 's1', agentId: 'a1' });
  assert.deepEqual(matchRoute('/api/internal/exec/servers/s1/agents/a1/task/list'), { kind: 'exec', serverId: 's1', agentId: 'a1', domain: 'task', action: 'list' });
  assert.equal(matchRoute('/api/internal/exec/servers/s1/agents/a1/catalog'), null);
  assert.equal(matchRoute('/api/internal/mcp/servers/s1/agents/a1/extra'), null);
});

test('the bare baseline answers ping only to the right token on the right path from loopback', async () => {
  // serverUrl points nowhere: ping and denials never call the server.
  const srv = await startBare({ serverUrl: 'http://127.0.0.1:9', credentials: { a1: 'ats_x' }, tokens: [{ secret: 'atm_good', scope: 'mcp', serverId: 's1', agentId: 'a1' }, { secret: 'atx_exec', scope: 'exec', serverId: 's1', agentId: 'a1' }] });
  const port = (srv.address() as import('node:net').AddressInfo).port;
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' });
  const call = (path: string, token: string, host = `127.0.0.1:${port}`) => http(port, 'POST', path, { headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', host }, body: ping });
  try {
    const ok = await call('/api/internal/mcp/servers/s1/agents/a1', 'atm_good');
    assert.equal(ok.status, 200);
    assert.deepEqual(JSON.parse(ok.body), { jsonrpc: '2.0', id: 7, result: {} });
    const list = await http(port, 'POST', '/mcp/agentteam/s1/a1', { headers: { authorization: 'Bearer atm_good', 'content-type': 'application/json', host: 'localhost' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    assert.ok(JSON.parse(list.body).result.tools.some((t: { name: string }) => t.name === 'message_history_read'));
    const denied = [
      await call('/api/internal/mcp/servers/s1/agents/a1', 'atm_wrong'),
      await call('/api/internal/mcp/servers/s1/agents/a1', 'atx_exec'), // exec token on an MCP route
      await call('/api/internal/mcp/servers/s2/agents/a1', 'atm_good'), // other server
      await call('/api/internal/mcp/servers/s1/agents/a2', 'atm_good'), // other agent
      await call('/api/internal/mcp/servers/s1/agents/a1', 'atm_good', 'evil.example:80'), // DNS rebinding
    ];
    for (const d of denied) {
      assert.equal(d.status, 403);
      assert.equal(d.body, denied[0]!.body);
      assert.ok(!d.body.includes('atm_'));
    }
  } finally {
    await new Promise((r) => srv.close(r));
  }
});
