// Tests the load generator (autocannon in a child) and the report helpers against a real loopback server (counts, checks, caps, ceiling marks).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { median, quantile, runLoad } from './load.js';
import { alternate, goal, goalNear, nearCeiling, table } from './report.js';

async function server(handler: (path: string, auth: string | undefined) => number): Promise<{ port: number; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url} ${body}`);
      const status = handler(req.url ?? '', req.headers.authorization);
      res.writeHead(status, { 'content-type': 'application/json' }).end(`{"status":${status}}`);
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { port: (s.address() as AddressInfo).port, seen, close: () => new Promise((r) => s.close(() => r())) };
}

test('quantile is nearest-rank and median averages the middle pair', () => {
  const xs = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(quantile(xs, 0.5), 50);
  assert.equal(quantile(xs, 0.99), 99);
  assert.equal(quantile(xs, 1), 100);
  assert.equal(quantile([7], 0.99), 7);
  assert.ok(Number.isNaN(quantile([], 0.5)));
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
});

test('runLoad (autocannon in a child) sends per-connection headers and bodies, checks every connection before and after, and stops at the cap', async () => {
  const s = await server((_url, auth) => (auth === 'Bearer good' ? 200 : 403));
  try {
    const spec = {
      port: s.port,
      method: 'POST' as const,
      path: (c: number) => `/p${c}`,
      headers: (c: number) => ({ authorization: 'Bearer good', 'content-type': 'application/json', 'x-conn': String(c) }),
      body: (c: number) => Buffer.from(`{"c":${c}}`),
      connections: 2,
      durationMs: 5_000,
      warmupMs: 0,
      maxRequests: 40,
    };
    const r = await runLoad(spec);
    assert.equal(s.seen.length, 2 + 40 + 2, 'one checked request per connection before and after the 40 measured');
    assert.equal(r.ok, 40);
    assert.equal(r.failed, 0);
    assert.equal(r.completed, 40);
    assert.ok(s.seen.filter((l) => l === 'POST /p0 {"c":0}').length > 2);
    assert.ok(s.seen.filter((l) => l === 'POST /p1 {"c":1}').length > 2);
    assert.ok(r.p50Ms > 0 && r.p99Ms >= r.p50Ms);
    assert.ok(r.rps > 0);
    // One connection whose answer fails: the whole run counts as failed, with the first failure reported.
    const bad = await runLoad({ ...spec, headers: (c: number) => ({ authorization: c === 0 ? 'Bearer good' : 'Bearer bad', 'content-type': 'application/json' }) });
    assert.equal(bad.ok, 0);
    assert.equal(bad.failed, 40);
    assert.match(bad.firstFailure ?? '', /^HTTP 403/);
  } finally {
    await s.close();
  }
});

test('runLoad applies the check to bodies and counts a dead server as failed', async () => {
  const s = await server(() => 200);
  try {
    const r = await runLoad({ port: s.port, method: 'GET', path: () => '/', headers: () => ({}), connections: 1, durationMs: 5_000, warmupMs: 0, maxRequests: 5, check: (_st, b) => b.includes('"status":201') });
    assert.equal(r.ok, 0);
    assert.equal(r.failed, 5);
    assert.match(r.firstFailure ?? '', /^HTTP 200: \{"status":200\}/);
  } finally {
    await s.close();
  }
  const dead = await runLoad({ port: s.port, method: 'GET', path: () => '/', headers: () => ({}), connections: 1, durationMs: 1_000, warmupMs: 0, maxRequests: 3 });
  assert.equal(dead.ok, 0);
  assert.match(dead.firstFailure ?? '', /^socket/);
});

test('nearCeiling marks a measurement whose fastest server reached 80 % of the generator ceiling', () => {
  assert.equal(nearCeiling(79, 100), undefined);
  assert.match(nearCeiling(80, 100) ?? '', /80 % of the generator ceiling \(100 req\/s\)/);
  assert.equal(goalNear('x', 1, '>=', 0.8, nearCeiling(90, 100)).unreliable?.startsWith('fastest server at 90 %'), true);
});

test('alternate runs contenders A B A B in order; goal and table format', async () => {
  const order: string[] = [];
  const r = await alternate(3, [
    { name: 'A', run: async () => (order.push('A'), 1) },
    { name: 'B', run: async () => (order.push('B'), 2) },
  ]);
  assert.deepEqual(order, ['A', 'B', 'A', 'B', 'A', 'B']);
  assert.deepEqual(r, { A: [1, 1, 1], B: [2, 2, 2] });
  assert.equal(goal('x', 0.79, '>=', 0.8).met, false);
  assert.equal(goal('x', 1.6, '<=', 1.6).met, true);
  assert.equal(table(['a', 'bb'], [['xyz', '1']]), 'a    bb\n---  --\nxyz   1');
});
