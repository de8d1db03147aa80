// End-to-end: every owner route refuses malformed, unknown-field, oversized, slow, unauthenticated and overloading input.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { request, type ClientRequest } from 'node:http';
import { TestDaemon, cliJson, http } from './harness.js';

const d = new TestDaemon();
before(async () => {
  await d.start();
  await d.addAgent('owned');
});
after(() => d.dispose());

const headers = () => ({ authorization: `Bearer ${d.ownerToken()}`, host: `127.0.0.1:${d.port}`, 'content-type': 'application/json' });
const counts = async () => ({
  agents: cliJson(await d.run(['agent', 'ls'])).length,
  messages: cliJson(await d.run(['message', 'ls', '--target', 'channel:general', '--limit', '100'])).messages.length,
  runtimes: cliJson(await d.run(['runtime', 'ls'])).length,
});

const ROUTES: Array<[string, string]> = [
  ['/api/daemon/agents', '{"name":"ok1"}'],
  ['/api/daemon/messages', '{"target":"channel:general","content":"x"}'],
  ['/api/daemon/runtimes', '{"agent":"owned","command":["true"],"detach":true}'],
];

test('malformed JSON, unknown fields, wrong types and oversized bodies are typed errors that change nothing', async () => {
  const before = await counts();
  for (const [path, valid] of ROUTES) {
    const obj = JSON.parse(valid);
    const cases: Array<[string | Buffer, number, string]> = [
      [valid.slice(0, -3), 400, 'invalid_input'],
      [JSON.stringify({ ...obj, surprise: 1 }), 422, 'validation_failed'],
      [JSON.stringify(Object.fromEntries(Object.keys(obj).map((k) => [k, 12345]))), 422, 'validation_failed'],
      ['', 400, 'invalid_input'],
      [Buffer.alloc(1024 * 1024 + 1, 0x20), 413, 'payload_too_large'],
    ];
    for (const [body, status, code] of cases) {
      const r = await http(d.port, 'POST', path, { headers: headers(), body });
      assert.equal(r.status, status, `${path} ${String(body).slice(0, 40)} → ${r.body}`);
      assert.equal(JSON.parse(r.body).error.code, code);
    }
    const wrongToken = await http(d.port, 'POST', path, { headers: { ...headers(), authorization: 'Bearer ato_wrong' }, body: valid });
    assert.equal(wrongToken.status, 403);
  }
  const stop = await http(d.port, 'POST', '/api/daemon/runtimes/run_unknown/stop', { headers: headers() });
  assert.equal(stop.status, 404);
  assert.equal(JSON.parse(stop.body).error.code, 'not_found');
  const noSuch = await http(d.port, 'POST', '/api/daemon/runtimes', { headers: headers(), body: '{"agent":"ghost","command":["true"],"detach":true}' });
  assert.equal(JSON.parse(noSuch.body).error.code, 'not_found');
  assert.deepEqual(await counts(), before);
});

function hold(path: string): { req: ClientRequest; status: Promise<number> } {
  let req!: ClientRequest;
  const status = new Promise<number>((res) => {
    req = request({ host: '127.0.0.1', port: d.port, method: 'POST', path, agent: false, headers: { ...headers(), 'content-length': '500' } }, (r) => {
      r.resume();
      res(r.statusCode ?? 0);
    });
    req.on('error', () => res(-1));
    req.write('{"na');
  });
  return { req, status };
}

test('more than 64 concurrent owner requests: the next is 409 admission_rejected at once, then service resumes', async () => {
  const held = Array.from({ length: 64 }, () => hold('/api/daemon/agents'));
  await new Promise((r) => setTimeout(r, 300));
  const over = await http(d.port, 'GET', '/api/daemon/status', { headers: headers() });
  assert.equal(over.status, 409);
  assert.equal(JSON.parse(over.body).error.code, 'admission_rejected');
  for (const h of held) h.req.destroy();
  await Promise.all(held.map((h) => h.status));
  await new Promise((r) => setTimeout(r, 100));
  const ok = await http(d.port, 'GET', '/api/daemon/status', { headers: headers() });
  assert.equal(ok.status, 200);
});
