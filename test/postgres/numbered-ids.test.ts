// Tests numbered ids across server processes on one PostgreSQL database: two real `agentteam server start` processes and two servers on one frozen clock create concurrently with no collision, no failure, and in creation order.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerApi } from '../../src/server-client/api.js';
import { startServer, type RunningServer } from '../../src/server/main.js';
import { TEST_ADMIN_TOKEN } from '../../src/domains/test-server.js';
import { systemClock, type Clock } from '../../src/shared/clock.js';
import { NUMBERED_ID_RE } from '../../src/shared/ids.js';
import { startCluster, type Cluster } from './cluster.js';
import { startServerProc, type ServerProc } from './server-proc.js';
import { DOMAINS, serverClient } from '../../src/domains/registry.js';

let cluster: Cluster;
const dir = mkdtempSync(join(tmpdir(), 'agentteam-ids-'));
before(async () => {
  cluster = await startCluster();
});
after(async () => {
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `n` creations through `api`, `width` at a time; every one must succeed (a 500 or a conflict rejects). */
async function createMany(api: ServerApi, n: number, width: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++;
        ids.push(i % 2 ? (await api.tasks.create({ title: `${tag} ${i}` })).id : (await api.messages.send({ target: 'channel:general', content: `${tag} ${i}` })).id);
      }
    }),
  );
  return ids;
}

/** The counter a numbered id says (after the prefix and the digit-count digit). */
const counterOf = (id: string) => Number(id.replace(/^[a-z]+\d/, ''));

test('two real server processes on one database create hundreds of ids concurrently: all distinct, counted by the database', async () => {
  const db = await cluster.createDatabase();
  const token = join(dir, 'admin.token');
  const procs: ServerProc[] = await Promise.all(['a', 'b'].map((n) => startServerProc(['--db', db, '--admin-token-file', token, '--log-file', join(dir, `${n}.log`)], join(dir, n))));
  const clients = procs.map((p) => serverClient({ baseUrl: p.url, timeoutMs: 30_000 }));
  try {
    const boot = await clients[0]!.bootstrap(readFileSync(token, 'utf8').trim(), { ownerName: 'Owner' });
    const [a, b] = clients.map((c) => c.as(boot.ownerCredential!));
    const [fromA, fromB] = await Promise.all([createMany(a!, 300, 8, 'A'), createMany(b!, 300, 8, 'B')]);
    const all = [...fromA, ...fromB];
    assert.equal(new Set(all).size, 600, 'no id made twice');
    for (const id of all) assert.match(id, NUMBERED_ID_RE);
    // Both processes draw on one sequence per kind: tasks from either are numbered from 1, none twice (a retried
    // transaction may leave a gap).
    const tasks = all.filter((id) => id.startsWith('tsk')).map(counterOf).sort((x, y) => x - y);
    assert.equal(tasks[0], 1);
    assert.equal(new Set(tasks).size, 300);
    // Rows made by one process are read by id through the other.
    for (const id of fromB.filter((i) => i.startsWith('tsk')).slice(0, 5)) assert.equal((await a!.tasks.get({ taskId: id })).id, id);
  } finally {
    for (const c of clients) c.close();
    await Promise.all(procs.map((p) => p.stop()));
  }
});

test('two servers on one database and one frozen clock: tasks made through either, one after another, list in exact creation order', async () => {
  const db = await cluster.createDatabase();
  // Time stands still: every task gets one created_at, so only the id orders them; timers (heartbeats) still run.
  const frozen = Date.UTC(2026, 11, 1);
  const clock: Clock = { now: () => frozen, setTimer: (ms, fn) => systemClock.setTimer(ms, fn) };
  const servers: RunningServer[] = await Promise.all([startServer({ domains: DOMAINS,  db, adminToken: TEST_ADMIN_TOKEN, clock }), startServer({ domains: DOMAINS,  db, adminToken: TEST_ADMIN_TOKEN, clock })]);
  const clients = servers.map((s) => serverClient({ baseUrl: s.url, timeoutMs: 30_000 }));
  try {
    const boot = await clients[0]!.bootstrap(TEST_ADMIN_TOKEN, { ownerName: 'Owner' });
    const [a, b] = clients.map((c) => c.as(boot.ownerCredential!));
    const made: string[] = [];
    for (let i = 0; i < 110; i++) made.push((await (i % 3 ? a! : b!).tasks.create({ title: `t${i}` })).id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const p = await a!.tasks.list({ limit: 25, ...(cursor ? { cursor } : {}) });
      seen.push(...p.tasks.map((t) => t.id));
      cursor = p.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, [...made].reverse(), 'newest first across the 9→10 and 99→100 boundaries');
    const [fromA, fromB] = await Promise.all([createMany(a!, 200, 8, 'A'), createMany(b!, 200, 8, 'B')]);
    assert.equal(new Set([...fromA, ...fromB]).size, 400);
  } finally {
    for (const c of clients) c.close();
    await Promise.all(servers.map((s) => s.close()));
  }
});
