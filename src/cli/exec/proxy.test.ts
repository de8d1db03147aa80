// Tests the Exec CLI's proxy choice (only loopback http proxies, NO_PROXY honoured) and one POST through a real proxy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loopbackProxyFor } from './proxy.js';
import { sendOnce } from './send.js';

const DAEMON = new URL('http://127.0.0.1:43117/api/internal/exec/servers/srv_1/agents/agt_1/task/list');

test('a loopback http proxy is used; a remote, https or credentialed one never is', () => {
  assert.equal(loopbackProxyFor(DAEMON, { HTTP_PROXY: 'http://127.0.0.1:35801' })?.port, '35801');
  assert.equal(loopbackProxyFor(DAEMON, { http_proxy: 'localhost:3128' })?.hostname, 'localhost');
  assert.equal(loopbackProxyFor(DAEMON, { http_proxy: 'http://[::1]:3128' })?.port, '3128');
  assert.equal(loopbackProxyFor(DAEMON, {}), null);
  for (const p of ['http://proxy.corp.example:3128', 'http://10.0.0.1:3128', 'https://127.0.0.1:3128', 'http://u:p@127.0.0.1:3128', 'socks5h://127.0.0.1:1080', '::bad::']) {
    assert.equal(loopbackProxyFor(DAEMON, { HTTP_PROXY: p }), null, p);
  }
  assert.equal(loopbackProxyFor(new URL('https://127.0.0.1:1/x'), { HTTP_PROXY: 'http://127.0.0.1:3128' }), null);
});

test('NO_PROXY exempts the daemon by name, suffix, host:port, CIDR or *; empty exempts nothing', () => {
  const via = (noProxy: string) => loopbackProxyFor(DAEMON, { HTTP_PROXY: 'http://127.0.0.1:3128', NO_PROXY: noProxy });
  for (const n of ['127.0.0.1', '*', 'localhost,127.0.0.1', '127.0.0.0/8', '127.0.0.1:43117', ' example.com 127.0.0.1']) assert.equal(via(n), null, n);
  for (const n of ['', 'example.com', '127.0.0.1:1', '10.0.0.0/8', '127.0.0.2']) assert.notEqual(via(n), null, n);
  assert.equal(loopbackProxyFor(new URL('http://localhost:1/x'), { HTTP_PROXY: 'http://127.0.0.1:3128', no_proxy: '.localhost' }), null);
});

test('through a proxy the POST names the absolute daemon URL and keeps its headers; the answer comes back', async () => {
  const seen: { url?: string; host?: string; auth?: string; body?: string } = {};
  const proxy = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      Object.assign(seen, { url: req.url, host: req.headers.host, auth: req.headers.authorization, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  try {
    const via = new URL(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`);
    const r = await sendOnce(DAEMON, 'tok', '{}', via);
    assert.deepEqual(r, { kind: 'response', status: 200, body: '{"ok":true}' });
    assert.deepEqual(seen, { url: DAEMON.href, host: '127.0.0.1:43117', auth: 'Bearer tok', body: '{}' });
  } finally {
    proxy.close();
  }
});
