// Tests the shared HTTP pieces: route matching, loopback Host/Origin checks, bearer parsing, body cap and deadline.
import { test } from 'node:test';
import { FakeClock } from '../../shared/clock.js';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { AppError } from '../../shared/errors.js';
import { decodeJson, readBody, readCompleteBody } from './body.js';
import { isAllowedOrigin, isLoopbackHost, sendJson } from './guard.js';
import { createHardenedServer } from './listener.js';
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
  // Empty segments are ignored, literals must be equal, and only the matching route's params are returned.
  const t = new Router().add('GET', '/v1/{kind}/x', () => {}).add('GET', '/v1/items/{id}', () => {}).add('DELETE', '/v1/items/{id}', () => {});
  assert.deepEqual(t.match('GET', '//v1///items/i7/').kind === 'found' && (t.match('GET', '//v1///items/i7/') as { params: unknown }).params, { id: 'i7' });
  assert.deepEqual((t.match('GET', '/v1/items/x') as { params: unknown }).params, { kind: 'items' });
  assert.deepEqual(t.match('PUT', '/v1/items/i7'), { kind: 'method_not_allowed', allow: ['GET', 'DELETE'] });
  assert.equal(t.match('GET', '/').kind, 'not_found');
  assert.equal(t.match('GET', '').kind, 'not_found');
  assert.equal(t.match('GET', '/v2/items/i7').kind, 'not_found');
});

test('loopback checks accept only loopback hosts and origins', () => {
  for (const h of ['127.0.0.1:80', 'localhost', 'LOCALHOST:9', '[::1]:8080']) assert.ok(isLoopbackHost(h), h);
  for (const h of [undefined, '', 'evil.com', '127.0.0.1.evil.com', 'localhost.evil:80', '10.0.0.1']) assert.ok(!isLoopbackHost(h), String(h));
  assert.ok(isAllowedOrigin(undefined));
  assert.ok(isAllowedOrigin('http://127.0.0.1:3000'));
  for (const o of ['http://evil.com', 'null', 'file://', 'http://localhost.evil.com']) assert.ok(!isAllowedOrigin(o), o);
  // Strict parse: loopback name or address, optional numeric port, nothing else.
  for (const h of ['127.0.0.1', '127.1.2.3:65535', 'localhost:1', '[::1]']) assert.ok(isLoopbackHost(h), h);
  const bad = ['127.0.0.1:4100.evil.com', 'localhost:80@evil.com', 'evil.com@localhost', 'localhost.', '127.0.0.1:', '127.0.0.1:65536', '127.0.0.1:80:80',
    '127.1', '127.000.0.1', '0177.0.0.1', '127.0.0.256', '[::1]x', '[::1]:80.evil', '::1', '[::2]', 'localhost:+80', 'local host', '127.0.0.1 :80', 'localhost#x', 'localhost/x'];
  for (const h of bad) assert.ok(!isLoopbackHost(h), h);
  for (const o of ['http://127.0.0.1:4100.evil.com', 'http://localhost:80@evil.com', 'http://localhost/', 'ws://localhost', 'http://127.1']) assert.ok(!isAllowedOrigin(o), o);
  assert.ok(isAllowedOrigin('https://[::1]:8443'));
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

test('readCompleteBody takes a body that came with the headers at once, and leaves a trickling one to the stream path', async () => {
  const seen: string[] = [];
  await withServer(
    async (req, res) => {
      await new Promise((r) => setImmediate(r)); // what readBody waits: the rest of this socket read is parsed by then
      let fast: string;
      try {
        const b = readCompleteBody(req, 16);
        fast = b === undefined ? 'stream' : `fast:${b.toString()}`;
      } catch (e) {
        fast = (e as AppError).code;
      }
      const rest = fast === 'stream' ? `+${(await readBody(req)).toString()}` : '';
      seen.push(fast + rest);
      res.end();
    },
    async (port) => {
      const send = (chunks: string[], gapMs = 0) =>
        new Promise<void>((resolve) => {
          const body = chunks.join('');
          const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'content-length': String(body.length) } }, (r) => {
            r.resume();
            r.on('end', resolve);
          });
          req.on('error', () => resolve());
          if (gapMs === 0) return void req.end(body);
          req.flushHeaders();
          setTimeout(() => req.end(body), gapMs);
        });
      await send(['{"a":1}']);
      await send(['{"late":true}'], 100);
      await send(['x'.repeat(17)]);
    },
  );
  assert.deepEqual(seen, ['fast:{"a":1}', 'stream+{"late":true}', 'payload_too_large']);
});

test('decodeJson rejects empty, invalid UTF-8 and invalid JSON with invalid_input', () => {
  assert.deepEqual(decodeJson(Buffer.from('{"a":1}')), { a: 1 });
  for (const b of [Buffer.alloc(0), Buffer.from([0xff, 0xfe]), Buffer.from('{"a":')]) {
    assert.throws(() => decodeJson(b), (e: unknown) => e instanceof AppError && e.code === 'invalid_input');
  }
});

test('a refusal (409 before the body, 413 from readBody) stops reading its socket: a client that never reads the answer and keeps writing gets it closed, and the server side read stays bounded (socket.bytesRead)', async () => {
  const reads: number[] = [];
  const server = createHardenedServer(async (req, res) => {
    req.socket.once('close', () => reads.push(req.socket.bytesRead));
    if (req.url === '/busy') return sendJson(res, 409, { ok: false, error: { code: 'admission_rejected' } });
    try {
      await readBody(req);
      sendJson(res, 200, { ok: true });
    } catch (e) {
      sendJson(res, (e as AppError).status, { ok: false });
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const CAP = 128 * 1024 * 1024;
  const flood = (path: string, headers: string) =>
    new Promise<number>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.pause(); // never reads the answer
      const raw = Buffer.alloc(256 * 1024, 0x20);
      const chunk = headers.includes('chunked') ? Buffer.concat([Buffer.from(`${raw.length.toString(16)}\r\n`), raw, Buffer.from('\r\n')]) : raw;
      let written = 0;
      let closed = false;
      const pump = () => {
        while (!closed && written < CAP) {
          written += chunk.length;
          if (!s.write(chunk)) return void s.once('drain', pump);
        }
        if (!closed) s.destroy();
      };
      s.on('connect', () => {
        s.write(`POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n${headers}\r\n`);
        pump();
      });
      s.on('error', () => undefined);
      s.on('close', () => {
        closed = true;
        resolve(written);
      });
    });
  try {
    for (const [path, headers] of [['/busy', 'content-length: 1073741824\r\n'], ['/read', 'transfer-encoding: chunked\r\n']] as const) {
      const written = await flood(path, headers);
      assert.ok(written < CAP, `${path}: the connection stayed open for all ${written} bytes`);
      await new Promise((r) => setImmediate(r));
      const read = reads.shift()!;
      assert.ok(read < 8 * 1024 * 1024, `${path}: the server read ${read} bytes`);
    }
  } finally {
    server.close();
  }
});
