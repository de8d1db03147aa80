// Tests the lean HTTP/1.1 pool on raw sockets: every answer framing, hostile or broken answers, pooling, cancel and stale sockets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { H1Error, H1Pool, type H1Answer } from './h1.js';

/** A raw TCP server: `onRequest` gets each request's head (and body) and writes whatever bytes it likes. */
async function raw(onRequest: (sock: Socket, head: string, n: number) => void): Promise<{ port: number; server: NetServer; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createNetServer((sock) => {
    sockets.push(sock);
    let buf = '';
    let n = 0;
    sock.on('error', () => undefined);
    sock.on('data', (d) => {
      buf += d.toString('latin1');
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.slice(0, end);
        const len = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + len) return;
        buf = buf.slice(end + 4 + len);
        onRequest(sock, head, ++n);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, server, sockets };
}

function pool(port: number, over: Partial<ConstructorParameters<typeof H1Pool>[0]> = {}): H1Pool {
  return new H1Pool({ host: '127.0.0.1', port, hostHeader: `127.0.0.1:${port}`, maxSockets: 4, idleMs: 4000, maxBodyBytes: 1024 * 1024, ...over });
}

function call(p: H1Pool, path = '/x', body?: Buffer): Promise<H1Answer> {
  return new Promise((resolve, reject) => p.request(body ? 'POST' : 'GET', path, { accept: 'application/json' }, body, (e, a) => (e ? reject(e) : resolve(a!))));
}

async function failure(p: Promise<unknown>): Promise<H1Error> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof H1Error, String(e));
    return e;
  }
  assert.fail('expected the exchange to fail');
}

const close = (s: NetServer, sockets: Socket[]) => {
  for (const x of sockets) x.destroy();
  s.close();
};

test('Content-Length, chunked and close-delimited answers are read whole; a kept socket serves the next request', async () => {
  const { port, server, sockets } = await raw((sock, head, n) => {
    if (head.startsWith('GET /len')) sock.write(`HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel`), setTimeout(() => sock.write('lo'), 5);
    else if (head.startsWith('GET /chunked')) sock.write('HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n'), setTimeout(() => sock.write('2\r\nde\r\n0\r\nX-Trailer: 1\r\n\r\n'), 5);
    else if (head.startsWith('GET /interim')) sock.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n');
    else sock.end(`HTTP/1.1 200 OK\r\n\r\nuntil close ${n}`);
  });
  const p = pool(port);
  const a = await call(p, '/len');
  assert.equal(a.status, 200);
  assert.equal(a.body.toString(), 'hello');
  assert.equal(p.idleSockets.length, 1);
  const b = await call(p, '/chunked');
  assert.equal(b.status, 201);
  assert.equal(b.body.toString(), 'abcde');
  const c = await call(p, '/interim');
  assert.equal(c.status, 204);
  assert.equal(c.body.length, 0);
  assert.equal(sockets.length, 1, 'one connection carried all three');
  const d = await call(p, '/eof');
  assert.equal(d.body.toString(), 'until close 4');
  await new Promise((r) => setImmediate(r));
  assert.equal(p.idleSockets.length, 0, 'a close-delimited answer never goes back to the pool');
  p.destroy();
  close(server, sockets);
});

test('smuggling shapes, bad framing, oversized heads and bodies fail as typed errors and drop the socket', async () => {
  const answers: Record<string, string> = {
    '/both': 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    '/twolengths': 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd',
    '/gzipte': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nxx',
    '/folded': 'HTTP/1.1 200 OK\r\nX-A: 1\r\n continued\r\nContent-Length: 0\r\n\r\n',
    '/badstatus': 'HTTP/2 200 OK\r\nContent-Length: 0\r\n\r\n',
    '/badchunk': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    '/upgrade': 'HTTP/1.1 101 Switching Protocols\r\n\r\n',
    '/bigbody': `HTTP/1.1 200 OK\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n`,
    '/bigchunks': `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${'fffff\r\n' + 'x'.repeat(0xfffff) + '\r\n'}${'fffff\r\n' + 'x'.repeat(0xfffff) + '\r\n'}`,
    '/bighead': `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(70 * 1024)}\r\n\r\n`,
  };
  const { port, server, sockets } = await raw((sock, head) => sock.write(answers[head.split(' ')[1]!] ?? 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'));
  const p = pool(port);
  for (const [path, reason] of Object.entries({ '/both': 'malformed', '/twolengths': 'malformed', '/gzipte': 'malformed', '/folded': 'malformed', '/badstatus': 'malformed', '/badchunk': 'malformed', '/upgrade': 'malformed', '/bigbody': 'too_large', '/bigchunks': 'too_large', '/bighead': 'too_large' })) {
    const e = await failure(call(p, path));
    assert.equal(e.reason, reason, path);
    assert.equal(e.stale, false, path);
  }
  assert.equal(p.idleSockets.length, 0);
  // The pool is still usable: a new socket serves the next request.
  assert.equal((await call(p, '/other')).status, 404);
  p.destroy();
  close(server, sockets);
});

test('bytes nobody asked for end the socket; trailing bytes after an answer keep it out of the pool', async () => {
  const { port, server, sockets } = await raw((sock) => sock.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nevil'));
  const p = pool(port);
  assert.equal((await call(p)).body.toString(), 'ok');
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(p.idleSockets.length, 0, 'a socket with a second, unrequested answer is never reused');
  p.destroy();
  close(server, sockets);
});

test('a header or path that could carry a line break is refused before any byte is written', async () => {
  let requests = 0;
  const { port, server, sockets } = await raw((sock) => {
    requests++;
    sock.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
  });
  const p = pool(port);
  const done = () => assert.fail('no exchange may start');
  assert.throws(() => p.request('GET', '/x', { authorization: 'Bearer a\r\nX-Injected: 1' }, undefined, done), TypeError);
  assert.throws(() => p.request('GET', '/x HTTP/1.1\r\nX: y', {}, undefined, done), TypeError);
  assert.throws(() => p.request('GET', 'http://elsewhere/x', {}, undefined, done), TypeError);
  assert.throws(() => p.request('GET', '/x', { 'bad name': 'v' }, undefined, done), TypeError);
  assert.throws(() => p.request('GET', '/é', {}, undefined, done), TypeError);
  await call(p);
  assert.equal(requests, 1);
  p.destroy();
  close(server, sockets);
});

test('parallel calls beyond maxSockets queue; all are answered, over at most maxSockets connections', async () => {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => res.end(JSON.stringify({ path: req.url })), 2));
  });
  let conns = 0;
  server.on('connection', () => conns++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const p = pool(port, { maxSockets: 3 });
  const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => call(p, `/n${i}`, i % 2 ? Buffer.from('{"a":1}') : undefined)));
  answers.forEach((a, i) => assert.equal(JSON.parse(a.body.toString()).path, `/n${i}`));
  assert.equal(conns, 3);
  // A large body goes out in full too.
  const big = Buffer.alloc(300 * 1024, 'x');
  const echo = createServer((req, res) => {
    let n = 0;
    req.on('data', (d: Buffer) => (n += d.length));
    req.on('end', () => res.end(String(n)));
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  const q = pool((echo.address() as AddressInfo).port);
  assert.equal((await call(q, '/big', big)).body.toString(), String(big.length));
  p.destroy();
  q.destroy();
  server.closeAllConnections();
  server.close();
  echo.closeAllConnections();
  echo.close();
});

test('cancel drops the exchange and its socket; a reused socket closed before any answer is reported stale', async () => {
  const { port, server, sockets } = await raw((sock, head, n) => {
    if (head.startsWith('GET /hang')) return; // never answers
    if (n === 2) return void sock.destroy(); // the second request on a connection: dropped unanswered
    sock.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
  });
  const p = pool(port);
  let called = false;
  const x = p.request('GET', '/hang', {}, undefined, () => (called = true));
  await new Promise((r) => setTimeout(r, 20));
  x.cancel();
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(called, false, 'a cancelled exchange never calls back');
  assert.equal(p.idleSockets.length, 0);
  // A fresh connection answers; the same connection, reused, is dropped before answering: stale.
  assert.equal((await call(p, '/a')).body.toString(), 'ok');
  const e = await failure(call(p, '/b'));
  assert.equal(e.stale, true);
  // The same with a reset (RST, a socket error) instead of a close.
  const reset = await raw((sock, _head, n) => (n === 2 ? void sock.resetAndDestroy() : void sock.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n')));
  const r = pool(reset.port);
  await call(r);
  const re = await failure(call(r));
  assert.equal(re.stale, true);
  assert.equal(re.reason, 'socket');
  assert.equal(re.code, 'ECONNRESET');
  r.destroy();
  close(reset.server, reset.sockets);
  // A fresh connection dropped before any answer is not stale (the request may have been read).
  const fresh = await raw((sock) => sock.destroy());
  const q = pool(fresh.port);
  assert.equal((await failure(call(q))).stale, false);
  // A refused connection is a socket error with its errno code.
  fresh.server.close();
  await new Promise((r) => setTimeout(r, 10));
  const refused = await failure(call(pool(fresh.port)));
  assert.equal(refused.reason, 'socket');
  assert.equal(refused.code, 'ECONNREFUSED');
  p.destroy();
  q.destroy();
  close(server, sockets);
});
