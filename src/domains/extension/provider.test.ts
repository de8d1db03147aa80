// Tests the provider HTTP boundary against a hostile local server: a body of any size is never held whole (declared or
// streamed), a 403's body is read only as far as needed, and a next-page URL longer than any real one is refused.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { conditionalGet, ProviderError, type ProviderHttp } from './provider.js';

const MB = 1024 * 1024;
let server: Server;
let base = '';
/** Bytes the server managed to write per path (a reader that stops early leaves the rest unsent). */
const written = new Map<string, number>();

before(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    const chunk = Buffer.alloc(MB, 0x20);
    let sent = 0;
    const stream = (total: number, head?: Record<string, string | number>) => {
      if (head) res.writeHead(200, head);
      const more = () => {
        while (sent < total) {
          sent += chunk.length;
          written.set(path, sent);
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('error', () => undefined);
      more();
    };
    if (path === '/streamed') return stream(256 * MB, { 'content-type': 'application/json' });
    if (path === '/declared') return stream(256 * MB, { 'content-type': 'application/json', 'content-length': 256 * MB });
    if (path === '/link') {
      res.writeHead(200, { 'content-type': 'application/json', link: `<${base}/next?p=${'x'.repeat(3000)}>; rel="next"` });
      return res.end('[]');
    }
    if (path === '/suspended') {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.write('{"message":"This installation has been suspended"}');
      return stream(256 * MB);
    }
    res.writeHead(200, { 'content-type': 'application/json', link: `<${base}/next?page=2>; rel="next"` });
    res.end('[1]');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const h = (): ProviderHttp => ({ base, authorization: 'token t', headers: {}, now: Date.now() });
const reason = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof ProviderError ? `${e.kind}:${e.reason}` : String(e)),
  );

test('a body past the bound is a broken answer, read no further: streamed, or declared too large', async () => {
  assert.equal(await reason(conditionalGet(h(), '/streamed', {}, (j) => j)), 'failed:bad_response');
  // The reader stopped after its 4 MiB: the server could not push the 256 MiB (socket buffers hold a few MiB at most).
  await new Promise((r) => setTimeout(r, 200));
  assert.ok((written.get('/streamed') ?? 0) < 64 * MB, `the server wrote ${Math.round((written.get('/streamed') ?? 0) / MB)} MiB`);
  assert.equal(await reason(conditionalGet(h(), '/declared', {}, (j) => j)), 'failed:bad_response');
});

test('a 403 is classified from the start of its body; a next-page URL longer than any provider writes is refused', async () => {
  assert.equal(await reason(conditionalGet(h(), '/suspended', {}, (j) => j)), 'unauthorized:suspended');
  assert.equal(await reason(conditionalGet(h(), '/link', {}, (j) => j)), 'failed:bad_response');
  const ok = await conditionalGet(h(), '/plain', {}, (j) => j);
  assert.ok(ok.changed);
  assert.deepEqual(ok.changed && ok.body, [1]);
  assert.equal(ok.changed && ok.next, `${base}/next?page=2`);
});
