// End-to-end: unauthenticated connections are bounded on the daemon's and the embedded server's listeners (real sockets).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { TestDaemon, cliJson } from './harness.js';

const MAX = 64;
const d = new TestDaemon(undefined, { AGENTTEAM_MAX_CONNECTIONS: String(MAX) });
let serverPort = 0;
let serverId = '';
before(async () => {
  await d.start();
  const s = cliJson(await d.run(['daemon', 'status']));
  serverPort = Number(new URL(s.server.url).port);
  serverId = s.server.serverId;
});
after(() => d.dispose());

const HUGE = 512 * 1024 * 1024;

/**
 * Sends headers announcing a 512 MiB body, then writes the body as fast as the socket takes it until the peer answers
 * and closes. Returns the status line and how many body bytes the peer let us write.
 */
function hugeBody(port: number, method: string, path: string, headers: Record<string, string>): Promise<{ status: string; written: number }> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    let written = 0;
    let head = '';
    let closed = false;
    const pump = () => {
      while (!closed && written < HUGE) {
        written += chunk.length;
        if (!s.write(chunk)) return void s.once('drain', pump);
      }
    };
    s.on('connect', () => {
      const h = Object.entries({ host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'content-length': String(HUGE), ...headers }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      s.write(`${method} ${path} HTTP/1.1\r\n${h}\r\n`);
      pump();
    });
    s.on('data', (b) => {
      head += b.toString('latin1');
      if (head.includes('\r\n\r\n')) s.destroy(); // got the answer: stop sending
    });
    s.on('error', () => undefined); // EPIPE/ECONNRESET once the peer closed: expected
    s.on('close', () => {
      closed = true;
      if (!head) return reject(new Error(`closed with no answer after ${written} bytes`));
      resolve({ status: head.slice(0, head.indexOf('\r\n')), written });
    });
  });
}

test('an answer sent before the body is read closes the connection without draining a 512 MiB body (daemon and server)', async () => {
  const cases: Array<[number, string, string, Record<string, string>, RegExp]> = [
    [d.port, 'POST', '/api/daemon/messages', {}, / 403 /],
    [d.port, 'POST', '/api/daemon/messages', { authorization: 'Bearer ato_wrong' }, / 403 /],
    [d.port, 'POST', `/api/internal/exec/servers/${serverId}/agents/agt_x/task/create`, { authorization: 'Bearer atx_wrong' }, / 403 /],
    [d.port, 'POST', `/api/internal/mcp/servers/${serverId}/agents/agt_x`, {}, / 403 /],
    [d.port, 'POST', '/no/such/route', {}, / 404 /],
    [serverPort, 'POST', '/v1/messages', {}, / 403 /],
    [serverPort, 'POST', '/v1/messages', { authorization: 'Bearer nope' }, / 403 /],
    [serverPort, 'POST', '/no/such/route', {}, / 404 /],
  ];
  for (const [port, method, path, headers, status] of cases) {
    const r = await hugeBody(port, method, path, headers);
    assert.match(r.status, status, `${path}: ${r.status}`);
    // Kernel socket buffers hold a few MiB; draining would let the whole 512 MiB through.
    assert.ok(r.written < 64 * 1024 * 1024, `${port === d.port ? 'daemon' : 'server'} ${path}: ${r.written} bytes accepted`);
  }
});

function openIdle(port: number, n: number): Promise<Socket[]> {
  return Promise.all(
    Array.from({ length: n }, () => new Promise<Socket>((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => resolve(s));
      s.on('error', reject);
    })),
  );
}

const closedAll = (sockets: Socket[]) => Promise.all(sockets.map((s) => (s.destroyed || s.readyState === 'closed' ? Promise.resolve() : new Promise((r) => s.once('close', r)))));

for (const [name, port] of [['daemon', () => d.port], ['embedded server', () => serverPort]] as const) {
  test(`${name}: idle sockets are closed by the header timeout; beyond the bound a connection gets a clear 503`, async () => {
    const idle = await openIdle(port(), MAX);
    for (const s of idle) s.on('error', () => undefined).resume();
    // One more connection than the bound: answered 503 at once, before it sends anything, and closed.
    const extra = connect(port(), '127.0.0.1');
    const answer = await new Promise<string>((resolve) => {
      let buf = '';
      extra.on('data', (b) => (buf += b.toString()));
      extra.on('error', () => undefined);
      extra.on('close', () => resolve(buf));
    });
    assert.match(answer, /^HTTP\/1\.1 503 /);
    assert.match(answer, /"code":"admission_rejected"/);
    // The idle ones never sent a byte: the short header timeout closes every one (the old listener kept them 40 s+).
    const t = setTimeout(() => idle.forEach((s) => s.destroy(new Error('still open'))), 20_000);
    let stillOpen = 0;
    for (const s of idle) s.once('error', (e) => e.message === 'still open' && stillOpen++);
    await closedAll(idle);
    clearTimeout(t);
    assert.equal(stillOpen, 0, `${stillOpen} idle sockets were still open`);
    // Service resumes once they are gone.
    const ok = await fetch(`http://127.0.0.1:${port()}/${name === 'daemon' ? 'api/daemon/status' : 'v1/server'}`, { headers: name === 'daemon' ? { authorization: `Bearer ${d.ownerToken()}` } : {} });
    assert.equal(ok.status, 200);
  });
}

test('Host is parsed strictly on both listeners: a loopback name with junk after the port is refused', async () => {
  const { http } = await import('./harness.js');
  for (const host of [`127.0.0.1:${d.port}.evil.com`, 'localhost:80@evil.com', `localhost.:${d.port}`, `127.1:${d.port}`]) {
    const owner = await http(d.port, 'GET', '/api/daemon/status', { headers: { host, authorization: `Bearer ${d.ownerToken()}` } });
    assert.equal(owner.status, 403, `daemon ${host}`);
    const srv = await http(serverPort, 'GET', '/v1/server', { headers: { host } });
    assert.equal(srv.status, 403, `server ${host}`);
  }
  const good = await http(d.port, 'GET', '/api/daemon/status', { headers: { host: `localhost:${d.port}`, authorization: `Bearer ${d.ownerToken()}` } });
  assert.equal(good.status, 200);
});

/** Opens a connection and writes `head` one byte per `everyMs` until the peer answers or closes; resolves with its answer and the bytes sent. */
function trickle(port: number, head: string, everyMs: number): Promise<{ answer: string; sent: number }> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    let sent = 0;
    let answer = '';
    const timer = setInterval(() => {
      if (sent < head.length) s.write(head[sent++]!);
    }, everyMs);
    s.on('data', (b) => (answer += b.toString('latin1')));
    s.on('error', () => undefined);
    s.on('close', () => {
      clearInterval(timer);
      resolve({ answer, sent });
    });
  });
}

test('slow headers (one byte at a time, never finished) are cut by the header timeout on both listeners, long before they complete', async () => {
  // 400 bytes at one per 100 ms would take 40 s; the 5 s header timeout (checked each second) ends it after at most ~70 bytes.
  const head = `GET /v1/server HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: ${'a'.repeat(400)}`;
  const [daemon, server] = await Promise.all([trickle(d.port, head, 100), trickle(serverPort, head, 100)]);
  for (const [name, r] of [['daemon', daemon], ['server', server]] as const) {
    assert.ok(r.sent < head.length, `${name}: the whole slow header was accepted`);
    assert.ok(r.answer === '' || /^HTTP\/1\.1 408 /.test(r.answer), `${name}: ${r.answer.slice(0, 40)}`);
  }
});

test('oversized headers and URLs get 431 on both listeners (failed before: a 400 that did not say why)', async () => {
  for (const port of [d.port, serverPort]) {
    const big = await fetch(`http://127.0.0.1:${port}/v1/server`, { headers: { 'x-big': 'a'.repeat(20_000) } }).then((r) => r.status, () => 0);
    assert.equal(big, 431, `port ${port}`);
    const url = await fetch(`http://127.0.0.1:${port}/v1/server?${'q'.repeat(20_000)}`).then((r) => r.status, () => 0);
    assert.equal(url, 431, `port ${port}`);
  }
});

/** The daemon process's own read counter (bytes its read syscalls returned, sockets included): Linux /proc/<pid>/io rchar. */
const rchar = (pid: number) => Number(/^rchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))![1]);
const FLOOD_CAP = 256 * 1024 * 1024;

/**
 * A client that never reads the answer: writes `head`, then (after `waitMs`) body bytes as fast as the socket takes
 * them, until the peer closes the connection or FLOOD_CAP is written. Resolves with what it wrote and whether it closed.
 */
function flood(port: number, head: string, opts: { waitMs?: number; chunked?: boolean } = {}): Promise<{ written: number; closed: boolean }> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.pause(); // never reads what the daemon answers
    const raw = Buffer.alloc(256 * 1024, 0x20);
    const chunk = opts.chunked ? Buffer.concat([Buffer.from(`${raw.length.toString(16)}\r\n`), raw, Buffer.from('\r\n')]) : raw;
    let written = 0;
    let closed = false;
    const pump = () => {
      while (!closed && written < FLOOD_CAP) {
        written += chunk.length;
        if (!s.write(chunk)) return void s.once('drain', pump);
      }
      if (!closed) s.destroy();
    };
    s.on('connect', () => {
      s.write(head);
      setTimeout(pump, opts.waitMs ?? 0);
    });
    s.on('error', () => undefined); // EPIPE/ECONNRESET once the daemon closed: expected
    s.on('close', () => {
      const byPeer = written < FLOOD_CAP;
      closed = true;
      resolve({ written, closed: byPeer });
    });
  });
}

test('after a refusal (403, 404, 413, 408, 400) nothing more is read from the socket, even from a client that never reads the answer and keeps sending; it is closed', async () => {
  const h = (port: number, method: string, path: string, headers: Record<string, string>) =>
    `${method} ${path} HTTP/1.1\r\n${Object.entries({ host: `127.0.0.1:${port}`, 'content-type': 'application/json', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  const big = { 'content-length': String(1024 * 1024 * 1024) };
  const chunked = { 'transfer-encoding': 'chunked' };
  const owner = { authorization: `Bearer ${d.ownerToken()}` };
  const cases: Array<[string, number, string, { waitMs?: number; chunked?: boolean }]> = [
    ['daemon 403 (no token)', d.port, h(d.port, 'POST', '/api/daemon/messages', big), {}],
    ['daemon exec 403', d.port, h(d.port, 'POST', `/api/internal/exec/servers/${serverId}/agents/agt_x/task/create`, { ...big, authorization: 'Bearer atx_wrong' }), {}],
    ['daemon 404', d.port, h(d.port, 'POST', '/no/such/route', big), {}],
    ['server 403', serverPort, h(serverPort, 'POST', '/v1/messages', big), {}],
    // Owner-authenticated: the declared length is over the 1 MiB cap (413 before the body), or the chunked body crosses it.
    ['daemon 413 (declared)', d.port, h(d.port, 'POST', '/api/daemon/messages', { ...big, ...owner }), {}],
    ['daemon 413 (chunked)', d.port, h(d.port, 'POST', '/api/daemon/messages', { ...chunked, ...owner }), { chunked: true }],
    // 408: one chunk, then nothing past the 5 s body deadline, then the flood.
    ['daemon 408', d.port, `${h(d.port, 'POST', '/api/daemon/messages', { ...chunked, ...owner })}1\r\n{\r\n`, { waitMs: 6_500, chunked: true }],
    // 400: a malformed chunk size is a parse error (clientError).
    ['daemon 400', d.port, `${h(d.port, 'POST', '/api/daemon/messages', { ...chunked, ...owner })}zz\r\n`, {}],
  ];
  const failed: string[] = [];
  for (const [name, port, head, opts] of cases) {
    const before = rchar(d.pid);
    const r = await flood(port, head, opts);
    const read = rchar(d.pid) - before;
    // The body cap (1 MiB) and the kernel's socket buffers bound it; reading on would take all 256 MiB.
    if (read >= 8 * 1024 * 1024) failed.push(`${name}: the daemon read ${read} bytes of ${r.written} sent`);
    if (!r.closed) failed.push(`${name}: the connection was not closed (${r.written} bytes written)`);
  }
  assert.deepEqual(failed, []);
});

/** One raw HTTP exchange: writes `raw`, collects everything the peer sends until it closes or `answers` responses arrived. */
function exchange(port: number, raw: string, answers = 1): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1', () => s.write(raw));
    let buf = '';
    s.on('data', (b) => {
      buf += b.toString('latin1');
      if ((buf.match(/HTTP\/1\.1 /g) ?? []).length >= answers && buf.endsWith('}')) s.destroy();
    });
    s.on('error', () => undefined);
    s.on('close', () => resolve(buf));
  });
}

test('refusals that linger do not crowd out served connections: MAX/2 open + MAX-4 lingering refusals, then a normal request still gets 200 (failed before: 503)', async () => {
  const idle = await openIdle(d.port, MAX / 2);
  for (const s of idle) s.on('error', () => undefined).resume();
  // A chunked body of unknown length is never read after the 403: each of these connections lingers up to 2 s.
  const refusal = `POST /api/daemon/messages HTTP/1.1\r\nhost: 127.0.0.1:${d.port}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n1\r\n{\r\n`;
  // In batches of 6, so that in-flight requests plus the idle ones stay under the bound.
  const answers: string[] = [];
  for (let i = 0; i < MAX - 4; i += 6) answers.push(...(await Promise.all(Array.from({ length: Math.min(6, MAX - 4 - i) }, () => exchange(d.port, refusal)))));
  const statuses = answers.map((a) => a.slice(9, 12));
  assert.deepEqual([...new Set(statuses)], ['403'], `statuses ${JSON.stringify(statuses.filter((s) => s !== '403').slice(0, 5))}`);
  const ok = await fetch(`http://127.0.0.1:${d.port}/api/daemon/status`, { headers: { authorization: `Bearer ${d.ownerToken()}` } });
  assert.equal(ok.status, 200);
  for (const s of idle) s.destroy();
});

test('a refused request with a small declared body (≤ 64 KiB) is drained and its connection serves the next request (failed before: closed after the first 403)', async () => {
  const one = `POST /api/daemon/messages HTTP/1.1\r\nhost: 127.0.0.1:${d.port}\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}`;
  const got = await exchange(d.port, one + one, 2);
  assert.equal((got.match(/HTTP\/1\.1 403 /g) ?? []).length, 2, got.slice(0, 300));
  assert.doesNotMatch(got, /connection: close/i);
});
