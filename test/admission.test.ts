// End-to-end: admission and denials on the internal routes of a real daemon, decided before any body byte is read.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestDaemon, cliJson, http } from './harness.js';

const d = new TestDaemon();
const wd = mkdtempSync(join(tmpdir(), 'agentteam-adm-'));
let exec = '';
let mcp = '';
let execPath = '';
let mcpPath = '';
let otherExec = '';
let otherPath = '';

async function launch(agent: string, file: string): Promise<{ exec: string; mcp: string }> {
  const r = await d.run(['runtime', 'start', '--agent', agent, '--workdir', wd, '--detach', '--', 'sh', '-c', `printf '%s %s' "$(cat "$AGENTTEAM_EXEC_TOKEN_FILE")" "$AGENTTEAM_MCP_TOKEN" > ${file}; sleep 120`]);
  assert.equal(r.code, 0, r.stderr);
  for (let i = 0; i < 100 && !existsSync(join(wd, file)); i++) await new Promise((res) => setTimeout(res, 50));
  await new Promise((res) => setTimeout(res, 50));
  const [e, m] = readFileSync(join(wd, file), 'utf8').split(' ');
  return { exec: e!, mcp: m! };
}

before(async () => {
  await d.start();
  const a = await d.addAgent('adm');
  const b = await d.addAgent('adm2');
  const serverId = cliJson(await d.run(['daemon', 'status'])).server.serverId;
  ({ exec, mcp } = await launch('adm', 'a.txt'));
  otherExec = (await launch('adm2', 'b.txt')).exec;
  execPath = `/api/internal/exec/servers/${serverId}/agents/${a.id}`;
  mcpPath = `/api/internal/mcp/servers/${serverId}/agents/${a.id}`;
  otherPath = `/api/internal/exec/servers/${serverId}/agents/${b.id}`;
});
after(() => d.dispose());

const host = () => `127.0.0.1:${d.port}`;

/** Opens a POST that declares a body and sends only part of it, so the request stays acquired. */
function hold(path: string, token: string): { req: ClientRequest; status: Promise<number> } {
  let req!: ClientRequest;
  const status = new Promise<number>((res) => {
    req = request({ host: '127.0.0.1', port: d.port, method: 'POST', path, agent: false, headers: { host: host(), authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': '1000' } }, (r) => {
      r.resume();
      res(r.statusCode ?? 0);
    });
    req.on('error', () => res(-1));
    req.write('{"jsonrpc"');
  });
  return { req, status };
}

test('the 33rd concurrent request on one authorization gets 409 admission_rejected at once, MCP and Exec counted together', async () => {
  const held = [...Array.from({ length: 16 }, () => hold(`${execPath}/task/list`, exec)), ...Array.from({ length: 16 }, () => hold(mcpPath, mcp))];
  await new Promise((r) => setTimeout(r, 300));
  let answered = 0;
  for (const h of held) void h.status.then(() => answered++);
  // A 33rd request with a declared 1 MiB body that it never sends: answered without its body being read.
  const over = await http(d.port, 'POST', `${execPath}/task/list`, { headers: { host: host(), authorization: `Bearer ${exec}`, 'content-type': 'application/json', 'content-length': '1048576' }, timeoutMs: 3000 }).catch((e) => ({ status: -1, body: String(e), headers: {} }));
  assert.equal(over.status, 409);
  assert.equal(JSON.parse(over.body).error.code, 'admission_rejected');
  const overMcp = await http(d.port, 'POST', mcpPath, { headers: { host: host(), authorization: `Bearer ${mcp}`, 'content-type': 'application/json', accept: 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
  assert.equal(overMcp.status, 409);
  // Another runtime's authorization has its own 32.
  const other = await http(d.port, 'GET', `${otherPath}/catalog`, { headers: { host: host(), authorization: `Bearer ${otherExec}` } });
  assert.equal(other.status, 200, 'another authorization has its own 32');
  const crossed = await http(d.port, 'GET', `${execPath}/catalog`, { headers: { host: host(), authorization: `Bearer ${otherExec}` } });
  assert.equal(crossed.status, 403, 'and its token is bound to its own agent');
  assert.equal(answered, 0, 'the held requests are still waiting for their bodies');
  for (const h of held) h.req.destroy();
  await Promise.all(held.map((h) => h.status));
  // Capacity comes back once the held requests are gone.
  let ok = 0;
  for (let i = 0; i < 20 && ok === 0; i++) {
    const r = await http(d.port, 'POST', `${execPath}/task/list`, { headers: { host: host(), authorization: `Bearer ${exec}`, 'content-type': 'application/json' }, body: '{}' });
    if (r.status === 200) ok++;
    else await new Promise((res) => setTimeout(res, 50));
  }
  assert.equal(ok, 1);
});

test('denials on MCP and Exec routes are byte-identical, for every class, and never read the body', async () => {
  const body = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
  const base = { host: host(), 'content-type': 'application/json', accept: 'application/json' };
  const cases = [
    http(d.port, 'POST', mcpPath, { headers: base, body }),
    http(d.port, 'POST', mcpPath, { headers: { ...base, authorization: `Bearer ${exec}` }, body }), // Exec scope on the MCP route
    http(d.port, 'POST', mcpPath, { headers: { ...base, authorization: `Bearer ${otherExec}` }, body }),
    http(d.port, 'POST', mcpPath, { headers: { ...base, authorization: `Bearer ${d.ownerToken()}` }, body }),
    http(d.port, 'POST', mcpPath, { headers: { ...base, authorization: `Bearer ${mcp}`, origin: 'http://evil.example' }, body }),
    http(d.port, 'POST', `${execPath}/task/list`, { headers: { ...base, authorization: `Bearer ${mcp}` }, body: '{}' }), // MCP scope on the Exec route
    http(d.port, 'POST', `${execPath}/task/list`, { headers: { ...base, authorization: 'Basic abc' }, body: '{}' }),
    // a wrong token with a declared 1 MiB body it never sends is still answered at once
    http(d.port, 'POST', `${execPath}/task/list`, { headers: { ...base, authorization: 'Bearer atx_nope', 'content-length': '1048576' }, timeoutMs: 3000 }),
  ];
  const res = await Promise.all(cases);
  for (const r of res) {
    assert.equal(r.status, 403);
    assert.equal(r.body, res[0]!.body);
    assert.equal(r.headers['www-authenticate'], undefined);
  }
});
