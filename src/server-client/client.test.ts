// Tests ServerClient error kinds against real sockets: refused connection, timeout, abort, server 5xx, client 4xx, no credential leaks.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '../domains/test-server.js';
import { LISTENER_DEFAULTS } from '../wire/http/listener.js';
import { IDLE_SOCKET_MS, ServerCallError } from './client.js';
import { serverClient } from '../domains/registry.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => t.stop());

/** A plain HTTP server standing in for a faulty upstream; it is not one of our components. */
async function upstream(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function caught(p: Promise<unknown>): Promise<ServerCallError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ServerCallError, String(e));
    return e;
  }
  assert.fail('expected a rejection');
}

const SECRET = 'ats_' + 'S'.repeat(43);

test('a closed port is upstream_unavailable of kind network, without the credential in the message', async () => {
  const { url, server } = await upstream(() => undefined);
  await new Promise((r) => server.close(r));
  const c = serverClient({ baseUrl: url });
  const e = await caught(c.as(SECRET).members.me());
  assert.equal(e.code, 'upstream_unavailable');
  assert.equal(e.kind, 'network');
  assert.equal(e.httpStatus, undefined);
  assert.ok(!e.message.includes(SECRET) && !String(e.stack).includes(SECRET));
  c.close();
});

test('a 5xx is upstream_unavailable of kind server; a non-JSON answer too', async () => {
  const { url, server } = await upstream((req, res) => {
    if (req.url === '/v1/me') {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"ok":false,"error":{"code":"internal","message":"disk on fire"}}');
    } else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>proxy page</html>');
    }
  });
  const c = serverClient({ baseUrl: url });
  const e = await caught(c.as(SECRET).members.me());
  assert.equal(e.code, 'upstream_unavailable');
  assert.equal(e.kind, 'server');
  assert.equal(e.httpStatus, 500);
  const h = await caught(c.info());
  assert.equal(h.code, 'upstream_unavailable');
  assert.equal(h.kind, 'server');
  c.close();
  server.close();
});

test('a server that never answers times out with kind timeout; an abort signal cancels at once', async () => {
  const { url, server } = await upstream(() => undefined);
  const c = serverClient({ baseUrl: url, timeoutMs: 100 });
  const e = await caught(c.info());
  assert.equal(e.kind, 'timeout');
  assert.equal(e.code, 'upstream_unavailable');
  const slow = serverClient({ baseUrl: url, timeoutMs: 60_000 });
  const ac = new AbortController();
  const p = slow.as(SECRET).tasks.list({}, { signal: ac.signal });
  setImmediate(() => ac.abort());
  const a = await caught(p);
  assert.equal(a.aborted, true);
  assert.equal(a.kind, 'network');
  const pre = await caught(slow.info({ signal: AbortSignal.abort() }));
  assert.equal(pre.aborted, true);
  c.close();
  slow.close();
  server.closeAllConnections();
  server.close();
});

test('4xx answers keep the server code with kind client', async () => {
  const e = await caught(t.owner.tasks.get({ taskId: 'tsk_missing' }));
  assert.equal(e.code, 'not_found');
  assert.equal(e.kind, 'client');
  assert.equal(e.httpStatus, 404);
  assert.equal(e.status, 404);
  const d = await caught(t.client.as(SECRET).members.me());
  assert.equal(d.code, 'denied');
  assert.equal(d.kind, 'client');
  assert.ok(!d.message.includes(SECRET));
  const bad = await caught(t.owner.tasks.create({ title: 'x' }, { idempotencyKey: 'not valid!' }));
  assert.equal(bad.code, 'invalid_input');
});

test('idempotencyKey is sent as both headers, so a retried call returns the same resource', async () => {
  const a = await t.owner.tasks.create({ title: 'retry me' }, { idempotencyKey: 'client-retry-1' });
  const b = await t.owner.tasks.create({ title: 'retry me' }, { idempotencyKey: 'client-retry-1' });
  assert.deepEqual(b, a);
  const e = await caught(t.owner.tasks.create({ title: 'something else' }, { idempotencyKey: 'client-retry-1' }));
  assert.equal(e.code, 'idempotency_conflict');
  assert.equal(e.kind, 'client');
});

test('keep-alive: many sequential calls succeed over the pooled agent', async () => {
  for (let i = 0; i < 50; i++) assert.equal((await t.client.info()).serverId, t.server.serverId);
});

test('a body over the server cap surfaces as payload_too_large, not a network error', async () => {
  for (let i = 0; i < 5; i++) {
    // A field the client does not bound itself (text fields are checked against their contract before sending).
    const e = await caught(t.owner.tasks.assign({ taskId: 'tsk_big', assigneeId: 'x'.repeat(3 * 1024 * 1024) }));
    assert.equal(e.code, 'payload_too_large');
    assert.equal(e.kind, 'client');
  }
  assert.equal((await t.owner.members.me()).id, t.ownerId);
});

test('a reused keep-alive socket reset before any answer is retried once for GETs and keyed mutations only', async () => {
  // Answers the first request on each connection and drops the connection on the second one.
  let served = 0;
  const { url, server } = await upstream((req, res) => {
    const sock = req.socket as typeof req.socket & { seen?: number };
    sock.seen = (sock.seen ?? 0) + 1;
    if (sock.seen > 1) return void sock.destroy();
    served++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, data: { serverId: 'srv_x', workspaceId: null, version: 'v' } }));
  });
  const c = serverClient({ baseUrl: url });
  await c.info();
  assert.equal((await c.info()).serverId, 'srv_x');
  assert.equal(served, 2, 'the GET was retried on a fresh connection');
  const api = c.as(SECRET);
  const e = await caught(api.tasks.create({ title: 'x' }));
  assert.equal(e.kind, 'network');
  assert.equal(served, 2, 'an unkeyed mutation is never repeated');
  await api.tasks.create({ title: 'x' }, { idempotencyKey: 'k1' });
  assert.equal(served, 3);
  c.close();
  server.closeAllConnections();
  server.close();
});

test('a loopback-bound server refuses a non-loopback Host before auth', async () => {
  const u = new URL(t.server.url);
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ hostname: u.hostname, port: u.port, path: '/v1/server', headers: { host: 'evil.example' } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
  assert.equal(status, 403);
  assert.equal(JSON.parse(body).error.code, 'denied');
  assert.equal((await fetch(`${t.server.url}/v1/server`)).status, 200);
});

test('an idle kept-alive socket is closed by the client before the server would close it', async () => {
  // A call sent just as the server (keep-alive 5 s) closed its idle socket failed with ECONNRESET; an unkeyed POST is not retried.
  const c = serverClient({ baseUrl: t.server.url });
  await c.info();
  const agent = (c as unknown as { targets: Array<{ agent: import('node:http').Agent }> }).targets[0]!.agent;
  const free = Object.values(agent.freeSockets).flat();
  assert.equal(free.length, 1, 'the socket went back to the pool');
  assert.equal(free[0]!.timeout, IDLE_SOCKET_MS);
  assert.ok(IDLE_SOCKET_MS < LISTENER_DEFAULTS.keepAliveTimeoutMs);
  // Its idle timeout firing closes it (the agent destroys a free socket on 'timeout'); the next call opens a new one.
  free[0]!.emit('timeout');
  assert.ok(free[0]!.destroyed);
  assert.equal((await c.info()).serverId, t.server.serverId);
  c.close();
});
