// Tests the server's own guards: bounded admission before the body, the read deadline, generic 403s, unknown locators.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, type ClientRequest } from 'node:http';
import { startTestServer, type TestServer } from '../../domains/test-server.js';

let t: TestServer;
before(async () => {
  t = await startTestServer({ maxInFlight: 4 });
});
after(async () => t.stop());

function send(method: string, path: string, opts: { token?: string; body?: string; declare?: number } = {}): { req: ClientRequest; answer: Promise<{ status: number; body: string }> } {
  const u = new URL(t.server.url);
  let req!: ClientRequest;
  const answer = new Promise<{ status: number; body: string }>((res) => {
    const headers: Record<string, string> = { authorization: `Bearer ${opts.token ?? t.ownerCredential}` };
    if (opts.body !== undefined || opts.declare !== undefined) headers['content-type'] = 'application/json';
    if (opts.declare !== undefined) headers['content-length'] = String(opts.declare);
    req = request({ host: u.hostname, port: u.port, method, path, agent: false, headers }, (r) => {
      let b = '';
      r.setEncoding('utf8').on('data', (c: string) => (b += c));
      r.on('end', () => res({ status: r.statusCode ?? 0, body: b }));
    });
    req.on('error', () => res({ status: -1, body: '' }));
  });
  if (opts.declare !== undefined) req.write('{"ti');
  else req.end(opts.body);
  return { req, answer };
}

test('past maxInFlight a request is 409 admission_rejected at once; capacity returns when the held requests end', async () => {
  const held = Array.from({ length: 4 }, () => send('POST', '/v1/tasks', { declare: 200 }));
  await new Promise((r) => setTimeout(r, 200));
  const over = await send('GET', '/v1/tasks').answer;
  assert.equal(over.status, 409);
  assert.equal(JSON.parse(over.body).error.code, 'admission_rejected');
  for (const h of held) h.req.destroy();
  await Promise.all(held.map((h) => h.answer));
  await new Promise((r) => setTimeout(r, 100));
  const ok = await send('GET', '/v1/tasks').answer;
  assert.equal(ok.status, 200);
  assert.deepEqual(JSON.parse(ok.body).data.tasks, [], 'no held request created anything');
});

test('a trickled body gets 408 after the 5 s deadline; wrong credentials get identical 403s; unknown ids are not_found', async () => {
  const slow = send('POST', '/v1/tasks', { declare: 100 });
  const denied = await Promise.all([send('GET', '/v1/tasks', { token: 'ats_wrong' }).answer, send('GET', '/v1/tasks', { token: t.ownerCredential.slice(0, -2) + 'xx' }).answer]);
  assert.equal(denied[0]!.status, 403);
  assert.equal(denied[0]!.body, denied[1]!.body);
  const missing = await send('GET', '/v1/tasks/tsk_nope').answer;
  assert.equal(JSON.parse(missing.body).error.code, 'not_found');
  const r = await slow.answer;
  assert.equal(r.status, 408);
  assert.equal(JSON.parse(r.body).error.code, 'request_timeout');
});
