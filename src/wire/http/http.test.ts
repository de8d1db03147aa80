// Tests the shared HTTP pieces: route matching, loopback Host/Origin checks, bearer parsing, body cap and deadline.
import { test } from 'node:test';
import { FakeClock } from '../../shared/clock.js';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '../../shared/errors.js';
import { decodeJson, readBody } from './body.js';
import { isAllowedOrigin, isLoopbackHost } from './guard.js';
import { Router } from './router.js';

test('router matches params, reports 405 with allowed methods, and refuses odd segments', () => {
  const r = new Router().add('GET', '/a/{x}/b', () => {}).add('POST', '/a/{x}/b', () => {});
  const m = r.match('GET', '/a/q1/b');
  assert.equal(m.kind, 'found');
  assert.deepEqual(m.kind === 'found' && m.params, { x: 'q1' });
  const n = r.match('PUT', '/a/q1/b');
  assert.deepEqual(n, { kind: 'method_not_allowed', allow: ['GET', 'POST'] });
  assert.equal(r.match('GET', '/a/%2e%2e/b').kind, 'not_found');
  assert.equal(r.match('GET', '/a/q1/b/c').kind, 'not_found');
});

test('loopback checks accept only loopback hosts and origins', () => {
  for (const h of ['127.0.0.1:80', 'localhost', 'LOCALHOST:9', '[::1]:8080']) assert.ok(isLoopbackHost(h), h);
  for (const h of [undefined, '', 'evil.com', '127.0.0.1.evil.com', 'localhost.evil:80', '10.0.0.1']) assert.ok(!isLoopbackHost(h), String(h));
  assert.ok(isAllowedOrigin(undefined));
  assert.ok(isAllowedOrigin('http://127.0.0.1:3000'));
  for (const o of ['http://evil.com', 'null', 'file://', 'http://localhost.evil.com']) assert.ok(!isAllowedOrigin(o), o);
});

async function withServer(handler: Parameters<typeof createServer>[1], fn: (port: number) => Promise<void>) {
  const s = createServer(handler);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  try {
    await fn((s.address() as AddressInfo).port);
  } finally {
    s.closeAllConnections();
    s.close();
  }
}

test('readBody enforces the byte cap, the absolute deadline and cancellation', async () => {
  const results: string[] = [];
  const ac = new AbortController();
  await withServer(
    async (req, res) => {
      try {
        // No real waiting: the deadline runs on a FakeClock advanced, and the abort fired, once the first chunk arrived.
        const clock = new FakeClock();
        const opts = req.url === '/slow' ? { deadlineMs: 5000, clock } : req.url === '/cancel' ? { signal: ac.signal } : { maxBytes: 10 };
        if (req.url === '/slow') req.once('data', () => setImmediate(() => clock.advance(5000)));
        if (req.url === '/cancel') req.once('data', () => setImmediate(() => ac.abort()));
        const b = await readBody(req, opts);
        results.push(`ok:${b.length}`);
      } catch (e) {
        results.push((e as AppError).code);
      }
      res.end();
    },
    async (port) => {
      const send = (path: string, chunks: string[], len?: number) =>
        new Promise<void>((resolve) => {
          const req = request({ host: '127.0.0.1', port, method: 'POST', path, headers: len ? { 'content-length': String(len) } : {} }, (r) => {
            r.resume();
            r.on('end', resolve);
          });
          req.on('error', () => resolve());
          for (const c of chunks) req.write(c);
          if (!len) req.end();
        });
      await send('/', ['0123456789']);
      await send('/', ['0123456789x']);
      await send('/slow', ['{"a"'], 100);
      await send('/cancel', ['{"a"'], 100);
    },
  );
  assert.deepEqual(results, ['ok:10', 'payload_too_large', 'request_timeout', 'denied']);
});

test('decodeJson rejects empty, invalid UTF-8 and invalid JSON with invalid_input', () => {
  assert.deepEqual(decodeJson(Buffer.from('{"a":1}')), { a: 1 });
  for (const b of [Buffer.alloc(0), Buffer.from([0xff, 0xfe]), Buffer.from('{"a":')]) {
    assert.throws(() => decodeJson(b), (e: unknown) => e instanceof AppError && e.code === 'invalid_input');
  }
});
