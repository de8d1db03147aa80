// Tests the server's streamed attachment routes on either engine: size/count/ownership checks, raw-HTTP refusals, expiry and the pending bound.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, test } from 'node:test';
import { systemClock, type Clock } from '../../shared/clock.js';
import type { ServerApi } from '../../server-client/api.js';
import { MAX_PENDING_UPLOADS, UPLOAD_TTL_MS } from './attachments.js';
import { readBytes, startTestServer, uploadBytes, type TestServer } from '../test-server.js';
import { SCHEMA } from '../registry.js';

let t: TestServer;
let agent: ServerApi;
let agentCred: string;
let now = Date.UTC(2026, 0, 1);
const clock: Clock = { now: () => (now += 1), setTimer: systemClock.setTimer };

before(async () => {
  t = await startTestServer({ clock });
  const a = await t.owner.members.createAgent({ name: 'uploader' });
  agent = t.client.as(a.credential);
  agentCred = a.credential;
  await t.owner.channels.addMember({ channelId: 'general', memberId: a.agent.id });
});
after(async () => t.stop());

const fails = async (p: Promise<unknown>, code: string) => {
  const e = await p.then(() => undefined, (x: unknown) => x);
  assert.ok(e, `expected ${code}`);
  assert.equal((e as { code?: string }).code, code);
};

/** A raw upload request: exact control over headers and how many body bytes are sent before the socket ends. */
function rawUpload(headers: Record<string, string>, body: Buffer, query = '?name=a.txt&contentType=text/plain'): Promise<{ status: number; body: any }> {
  const u = new URL(t.server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method: 'POST', path: `/v1/attachments${query}`, headers: { authorization: `Bearer ${agentCred}`, ...headers } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString() || 'null') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const countUploads = async () => {
  const { openStore } = await import('../../server/store/open.js');
  const s = await openStore(t.db, { schema: SCHEMA });
  try {
    return {
      uploads: Number((await s.get<{ n: number }>('SELECT COUNT(*) AS n FROM attachment_uploads'))!.n),
      chunks: Number((await s.get<{ n: number }>('SELECT COUNT(*) AS n FROM attachment_chunks WHERE NOT EXISTS (SELECT 1 FROM attachments a WHERE a.id = attachment_chunks.attachment_id)'))!.n),
    };
  } finally {
    await s.close();
  }
};

test('an upload streams in chunks and reads back exactly; a multi-chunk file keeps its bytes', async () => {
  const data = Buffer.alloc(1024 * 1024 + 3);
  for (let i = 0; i < data.length; i++) data[i] = (i * 7 + 3) & 0xff;
  const id = await uploadBytes(agent, 'data.bin', 'application/octet-stream', data);
  const m = await agent.messages.send({ target: 'channel:general', content: 'chunks', attachmentIds: [id] });
  assert.equal(m.attachments[0]!.size, data.length);
  assert.ok((await readBytes(t.owner, id)).equals(data));
});

test('raw refusals: no Content-Length, wrong content type, bad name or MIME type, over 10 MiB declared', async () => {
  const chunked = await rawUpload({ 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' }, Buffer.from('abc'));
  assert.equal(chunked.body.error.code, 'invalid_input');
  assert.equal((await rawUpload({ 'content-type': 'application/json', 'content-length': '3' }, Buffer.from('abc'))).body.error.code, 'invalid_input');
  assert.equal((await rawUpload({ 'content-type': 'application/octet-stream', 'content-length': '3' }, Buffer.from('abc'), '?name=&contentType=text/plain')).body.error.code, 'validation_failed');
  assert.equal((await rawUpload({ 'content-type': 'application/octet-stream', 'content-length': '3' }, Buffer.from('abc'), '?name=a&contentType=nope')).body.error.code, 'validation_failed');
  assert.equal((await rawUpload({ 'content-type': 'application/octet-stream', 'content-length': '3' }, Buffer.from('abc'), '?name=a&contentType=text/plain&extra=1')).body.error.code, 'validation_failed');
  const big = await rawUpload({ 'content-type': 'application/octet-stream', 'content-length': String(10 * 1024 * 1024 + 1) }, Buffer.alloc(0));
  assert.equal(big.status, 413);
  assert.equal((await rawUpload({ 'content-type': 'application/octet-stream', 'content-length': '3' }, Buffer.from('abc'), '?name=a&contentType=text/plain')).status, 200);
  const noAuth = await new Promise<number>((resolve) => {
    const u = new URL(t.server.url);
    request({ host: u.hostname, port: u.port, method: 'POST', path: '/v1/attachments?name=a&contentType=text/plain', headers: { 'content-type': 'application/octet-stream', 'content-length': '1' } }, (res) => resolve(res.statusCode ?? 0)).end('x');
  });
  assert.equal(noAuth, 403);
});

test('an attachment name is one line of visible text: NUL, controls and newlines are refused on both engines and nothing is stored (failed before: NUL was a 500 on PostgreSQL and stored on SQLite)', async () => {
  const before = await countUploads();
  for (const name of ['a%00b.txt', 'a%0Ab.txt', 'a%1B%5B31m.txt', 'a%E2%80%AEtxt.exe']) {
    const r = await rawUpload({ 'content-type': 'application/octet-stream', 'content-length': '3' }, Buffer.from('abc'), `?name=${name}&contentType=text/plain`);
    assert.equal(r.status, 422, `${name}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.error.code, 'validation_failed');
    assert.match(r.body.error.message, /attachment name must be one line/);
  }
  assert.deepEqual(await countUploads(), before);
});

test('an upload cut short leaves nothing behind', async () => {
  const before = await countUploads();
  const u = new URL(t.server.url);
  await new Promise<void>((resolve) => {
    const req = request({ host: u.hostname, port: u.port, method: 'POST', path: '/v1/attachments?name=a&contentType=text/plain', headers: { authorization: `Bearer ${agentCred}`, 'content-type': 'application/octet-stream', 'content-length': String(600_000) } });
    req.on('error', () => resolve());
    req.write(Buffer.alloc(300_000, 1), () => setTimeout(() => (req.destroy(), resolve()), 100));
  });
  for (let i = 0; i < 50; i++) {
    const c = await countUploads();
    if (c.uploads === before.uploads && c.chunks === before.chunks) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.deepEqual(await countUploads(), before);
});

test('uploads expire: an old upload cannot be claimed and the next upload sweeps it with its chunks', async () => {
  const id = await uploadBytes(agent, 'old.txt', 'text/plain', Buffer.alloc(300_000, 2));
  now += UPLOAD_TTL_MS + 1;
  await fails(agent.messages.send({ target: 'channel:general', content: 'late', attachmentIds: [id] }), 'validation_failed');
  await uploadBytes(agent, 'new.txt', 'text/plain', Buffer.from('n'));
  const c = await countUploads();
  assert.equal(c.uploads, 1, 'only the new upload waits');
  assert.equal(c.chunks, 1, 'the expired upload took its chunks with it');
});

test(`at most ${MAX_PENDING_UPLOADS} unclaimed uploads per member; sending frees them`, async () => {
  now += UPLOAD_TTL_MS + 1; // the previous test's upload expires
  const ids: string[] = [];
  for (let i = 0; i < MAX_PENDING_UPLOADS; i++) ids.push(await uploadBytes(agent, `p${i}`, 'text/plain', Buffer.from('p')));
  await fails(uploadBytes(agent, 'one more', 'text/plain', Buffer.from('p')), 'admission_rejected');
  await agent.messages.send({ target: 'channel:general', content: 'frees four', attachmentIds: ids.slice(0, 4) });
  await uploadBytes(agent, 'fits again', 'text/plain', Buffer.from('p'));
});
