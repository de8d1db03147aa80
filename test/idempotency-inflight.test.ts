// End-to-end: twenty concurrent mutations with one idempotency key on the embedded server: one write, every other answer 409 or its exact replay.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestDaemon, cliJson } from './harness.js';

const d = new TestDaemon();
let port = 0;
let cred = '';
before(async () => {
  await d.start();
  port = Number(new URL(cliJson(await d.run(['daemon', 'status'])).server.url).port);
  cred = JSON.parse(readFileSync(join(d.home, 'owner.json'), 'utf8')).credential;
});
after(() => d.dispose());

/** Opens n connections first, then writes every request in the same tick, so they reach the server together. */
async function burst(n: number, key: string, body: string): Promise<Array<{ status: number; body: string }>> {
  const sockets = await Promise.all(Array.from({ length: n }, () => new Promise<ReturnType<typeof connect>>((r) => {
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

// On SQLite the server claims the receipt and commits the write before it processes the next request, so duplicates get
// the exact replay; the 409-while-in-flight case, where requests really overlap, is test/postgres/idempotency-inflight.test.ts.
test('one key, twenty concurrent requests on the embedded server: exactly one write; the others are 409 or its exact replay', async () => {
  for (let round = 0; round < 5; round++) {
    const rs = await burst(20, `burst-${round}`, JSON.stringify({ target: 'channel:general', content: `burst ${round}` }));
    const ok = rs.filter((r) => r.status === 200);
    const conflict = rs.filter((r) => r.status === 409);
    assert.equal(ok.length + conflict.length, 20, rs.map((r) => r.status).join(','));
    assert.ok(ok.length >= 1);
    assert.equal(new Set(ok.map((r) => r.body)).size, 1, 'every 200 is the same response, byte for byte');
    for (const c of conflict) assert.equal(JSON.parse(c.body).error.code, 'conflict');
    const ls = cliJson(await d.run(['message', 'ls', '--target', 'channel:general', '--limit', '100'])).messages;
    assert.equal(ls.filter((m: { content: string }) => m.content === `burst ${round}`).length, 1, 'written exactly once');
  }
});
