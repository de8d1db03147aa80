// Owns the tests of batched credential lookups: one query per turn, keys split into bounded batches, misses and failures per waiter, no caching across turns.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openSqliteStore } from '../../server/store/sqlite.js';
import type { SqlValue, Store } from '../../server/store/types.js';
import { BatchedLookup, LOOKUP_BATCH_MAX } from './lookups.js';

interface Row {
  k: Buffer;
  v: string;
}

let dir: string;
let store: Store;
const key = (i: number) => Buffer.from([i >> 8, i & 255, 7]);

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lookups-'));
  store = openSqliteStore(join(dir, 's.db'), { migrations: [] });
  await store.run('CREATE TABLE kv (k BLOB PRIMARY KEY, v TEXT NOT NULL)');
  for (let i = 0; i < 200; i++) await store.run('INSERT INTO kv (k, v) VALUES (?, ?)', [key(i), `v${i}`]);
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The real store, counting the queries the batcher sends and their parameter counts. */
function counting(fail: { e?: Error } = {}) {
  const calls: number[] = [];
  const sql = {
    all: async <T>(q: string, params: readonly SqlValue[] = []): Promise<T[]> => {
      calls.push(params.length);
      if (fail.e) throw fail.e;
      return store.all<T>(q, params);
    },
  };
  const lookup = new BatchedLookup<Row>(sql, (n) => `SELECT k, v FROM kv WHERE k IN (${Array(n).fill('?').join(', ')})`, (r) => r.k);
  return { calls, lookup };
}

test('lookups asked in one turn share one query; each gets its own row, a miss gets undefined', async () => {
  const { calls, lookup } = counting();
  const out = await Promise.all([lookup.find(key(3)), lookup.find(key(9)), lookup.find(key(3)), lookup.find(Buffer.from('nope'))]);
  assert.deepEqual(out.map((r) => r?.v), ['v3', 'v9', 'v3', undefined]);
  assert.deepEqual(calls, [3], 'one query with the three distinct keys');
});

test('more keys than one batch holds are split into bounded queries, every waiter answered', async () => {
  const { calls, lookup } = counting();
  const n = LOOKUP_BATCH_MAX * 2 + 5;
  const out = await Promise.all(Array.from({ length: n }, (_, i) => lookup.find(key(i))));
  assert.deepEqual(out.map((r) => r?.v), Array.from({ length: n }, (_, i) => `v${i}`));
  assert.deepEqual(calls, [LOOKUP_BATCH_MAX, LOOKUP_BATCH_MAX, 5]);
});

test('nothing is cached across turns: a row deleted after one lookup is not found by the next', async () => {
  const { calls, lookup } = counting();
  assert.equal((await lookup.find(key(150)))?.v, 'v150');
  await store.run('DELETE FROM kv WHERE k = ?', [key(150)]);
  assert.equal(await lookup.find(key(150)), undefined);
  assert.deepEqual(calls, [1, 1]);
});

test('a failed query rejects every waiter of its batch with that error, and the next turn queries again', async () => {
  const boom = new Error('database down');
  const fail = { e: boom as Error | undefined };
  const { calls, lookup } = counting(fail);
  const rs = await Promise.allSettled([lookup.find(key(1)), lookup.find(key(2))]);
  assert.deepEqual(rs.map((r) => r.status), ['rejected', 'rejected']);
  assert.ok(rs.every((r) => r.status === 'rejected' && r.reason === boom));
  fail.e = undefined;
  assert.equal((await lookup.find(key(2)))?.v, 'v2');
  assert.deepEqual(calls, [2, 1]);
});
