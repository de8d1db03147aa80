// Tests one idempotency key under twenty concurrent requests on PostgreSQL (real overlap): one write; 409 conflict while it is in flight, else its exact replay.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { ServerApi } from '../../src/server-client/api.js';
import { ServerClient } from '../../src/server-client/client.js';
import { startServer, type RunningServer } from '../../src/server/main.js';
import { TEST_ADMIN_TOKEN } from '../../src/domains/test-server.js';
import { startCluster, type Cluster } from './cluster.js';
import { DOMAINS, serverClient } from '../../src/domains/registry.js';

let cluster: Cluster;
let server: RunningServer;
let client: ServerClient;
let owner: ServerApi;
let cred = '';
before(async () => {
  cluster = await startCluster();
  server = await startServer({ domains: DOMAINS,  db: await cluster.createDatabase(), adminToken: TEST_ADMIN_TOKEN });
  client = serverClient({ baseUrl: server.url });
  cred = (await client.bootstrap(TEST_ADMIN_TOKEN, { ownerName: 'Owner' })).ownerCredential!;
  owner = client.as(cred);
});
after(async () => {
  client?.close();
  await server?.close();
  await cluster?.stop();
});

/** Opens n connections first, then writes every request in the same tick, so they reach the server together. */
async function burst(n: number, key: string, body: string): Promise<Array<{ status: number; body: string }>> {
  const port = Number(new URL(server.url).port);
  const sockets = await Promise.all(Array.from({ length: n }, () => new Promise<Socket>((r) => {
    const s = connect(port, '127.0.0.1', () => r(s));
  })));
  const req = `POST /v1/messages HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer ${cred}\r\ncontent-type: application/json\r\nidempotency-key: ${key}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
  const answers = sockets.map((s) => new Promise<{ status: number; body: string }>((resolve) => {
    let buf = '';
    s.on('data', (c) => (buf += c.toString()));
    s.on('close', () => resolve({ status: Number(buf.slice(9, 12)), body: buf.slice(buf.indexOf('\r\n\r\n') + 4) }));
  }));
  for (const s of sockets) s.write(req);
  return Promise.all(answers);
}

test('twenty concurrent requests with one key: exactly one write, 409 conflict while it is in flight, every 200 the same bytes', async () => {
  let conflicts = 0;
  for (let round = 0; round < 5; round++) {
    const content = `burst ${round}`;
    const rs = await burst(20, `burst-${round}`, JSON.stringify({ target: 'channel:general', content }));
    const ok = rs.filter((r) => r.status === 200);
    const conflict = rs.filter((r) => r.status === 409);
    assert.equal(ok.length + conflict.length, 20, rs.map((r) => `${r.status} ${r.body}`).join('\n'));
    assert.ok(ok.length >= 1);
    assert.equal(new Set(ok.map((r) => r.body)).size, 1, 'every 200 is the one response, byte for byte');
    for (const c of conflict) assert.equal(JSON.parse(c.body).error.code, 'conflict');
    conflicts += conflict.length;
    const msgs = (await owner.messages.list({ target: 'channel:general', limit: 100 })).messages;
    assert.equal(msgs.filter((m) => m.content === content).length, 1, 'written exactly once');
  }
  assert.ok(conflicts > 0, 'requests that arrived while the first was in flight got 409');
});
