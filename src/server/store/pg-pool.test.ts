// Tests the store's pg pool against a scripted PostgreSQL wire peer: a backend terminated in the very chunk that made a new
// connection ready (pg_terminate_backend during a reconnect) neither crashes the process nor goes unreported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { createPool } from './postgres.js';
import { isConnectionLoss } from './pg-reconnect.js';

/** One backend message: type byte, int32 length (itself included), body. */
function msg(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([head, body]);
}
const fields = (f: Record<string, string>) => Buffer.concat([...Object.entries(f).map(([k, v]) => Buffer.from(`${k}${v}\0`)), Buffer.from([0])]);

/** A peer that accepts any startup, then sends AuthenticationOk, ReadyForQuery and a FATAL 57P01 in one write. */
async function terminatingPeer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.once('data', () => {
      const auth = msg('R', Buffer.from([0, 0, 0, 0]));
      const ready = msg('Z', Buffer.from('I'));
      const fatal = msg('E', fields({ S: 'FATAL', V: 'FATAL', C: '57P01', M: 'terminating connection due to administrator command' }));
      s.end(Buffer.concat([auth, ready, fatal]));
    });
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `postgres://u@127.0.0.1:${port}/db`, close: () => new Promise<void>((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r()))) };
}

test('a backend terminated in the chunk that made a new pooled connection ready: no unhandled error, the loss is reported', async () => {
  const peer = await terminatingPeer();
  const told: Error[] = [];
  const pool = createPool(peer.url, 2, (e) => told.push(e));
  try {
    // Without the pool's own listener the FATAL is an unhandled 'error' event: an uncaught exception fails this test.
    const client = await pool.connect();
    await new Promise((r) => setImmediate(r));
    assert.equal(told.length, 1, 'the loss reached the store (its reconnect loop) once');
    assert.equal(isConnectionLoss(told[0]), true);
    await assert.rejects(client.query('SELECT 1'), 'the borrowed client is unusable, and says so');
    client.release(told[0]);
  } finally {
    await pool.end().catch(() => undefined);
    await peer.close();
  }
});
