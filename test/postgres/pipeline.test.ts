// Tests the PostgreSQL autocommit pipeline on a real cluster: one turn's statements share a lane and each commits or fails alone; lost and stalled lanes hand statements to the pool.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { AutocommitPipeline } from '../../src/server/store/pg-pipeline.js';
import { isConnectionLoss } from '../../src/server/store/pg-reconnect.js';
import { openPostgresStore } from '../../src/server/store/postgres.js';
import { startCluster, type Cluster } from './cluster.js';

let cluster: Cluster;
let url: string;
before(async () => {
  cluster = await startCluster();
  url = await cluster.createDatabase('agentteam_pipe');
  await query('CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER NOT NULL)');
});
after(async () => cluster?.stop());

async function query<T extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text, params)).rows;
  } finally {
    await c.end();
  }
}

/** A monotonic time source that moves only when told. */
class FakeClock {
  t = 0;
  now = () => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

function pipeline(clock: FakeClock, errors: Error[] = [], lanes = 1) {
  return new AutocommitPipeline({ lanes, monotonic: clock.now, newClient: () => new pg.Client({ connectionString: url, pipeline: true } as pg.ClientConfig), onError: (e) => errors.push(e) });
}

/** Asks until a lane has connected (the first asks open it and answer undefined: the pool takes those). */
async function connected(p: AutocommitPipeline): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const r = p.query('SELECT 1 AS one', []);
    if (r) return void (await r);
    await new Promise((res) => setTimeout(res, 10));
  }
  throw new Error('no lane connected');
}

const backendsOf = async (app: string) => (await query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [app])).map((r) => r.pid);

test('statements of one turn share the lane; each commits before it resolves, and a failing one fails alone', async () => {
  const clock = new FakeClock();
  const p = pipeline(clock);
  try {
    await connected(p);
    const n = 20;
    const writes = Array.from({ length: n }, (_, i) => p.query('INSERT INTO kv (k, v) VALUES ($1, $2)', [`a${i}`, i]));
    const dup = p.query('INSERT INTO kv (k, v) VALUES ($1, $2)', ['a3', 99]);
    const read = p.query('SELECT count(*)::int AS n FROM kv', []);
    assert.ok(writes.every((w) => w !== undefined) && dup && read, 'one connected lane takes the whole turn');
    const rs = await Promise.allSettled([...writes, dup, read] as Array<Promise<pg.QueryResult>>);
    assert.ok(rs.slice(0, n).every((r) => r.status === 'fulfilled' && r.value.rowCount === 1));
    const d = rs[n]!;
    assert.equal(d.status, 'rejected');
    assert.equal((d as PromiseRejectedResult).reason.code, '23505');
    assert.equal((rs[n + 1] as PromiseFulfilledResult<pg.QueryResult>).value.rows[0].n, n, 'statements run in order, each in its own implicit transaction');
    // Committed: another connection sees every write, and the duplicate changed nothing.
    const seen = await query<{ k: string; v: number }>("SELECT k, v FROM kv WHERE k LIKE 'a%' ORDER BY v");
    assert.equal(seen.length, n);
    assert.equal(seen.find((r) => r.k === 'a3')!.v, 3);
  } finally {
    await p.close();
  }
});

test('a lane whose oldest statement stalls takes no more statements; they go to the pool (undefined) until it answers', async () => {
  const clock = new FakeClock();
  const p = pipeline(clock);
  try {
    await connected(p);
    const slow = p.query('SELECT pg_sleep(0.3)', [])!;
    const quick = p.query('SELECT 1', []);
    assert.ok(quick, 'a fresh statement still joins the lane');
    clock.advance(20);
    assert.equal(p.query('SELECT 1', []), undefined, 'stalled: the caller uses the pool');
    await Promise.all([slow, quick]);
    assert.ok(p.query('SELECT 1', []), 'answered: the lane takes statements again');
  } finally {
    await p.close();
  }
});

test('a terminated lane rejects its statements as a lost connection, reports it, and reopens only after the retry pause', async () => {
  const clock = new FakeClock();
  const errors: Error[] = [];
  const p = new AutocommitPipeline({ lanes: 1, monotonic: clock.now, retryMs: 1000, newClient: () => new pg.Client({ connectionString: url, pipeline: true, application_name: 'lane-kill' } as pg.ClientConfig), onError: (e) => errors.push(e) });
  try {
    await connected(p);
    const [pid] = await backendsOf('lane-kill');
    assert.ok(pid);
    const inFlight = p.query('SELECT pg_sleep(5)', [])!;
    await query('SELECT pg_terminate_backend($1)', [pid]);
    const e = await inFlight.then(() => undefined, (x: unknown) => x);
    assert.ok(isConnectionLoss(e), `a lost connection, got ${String(e)}`);
    for (let i = 0; i < 100 && errors.length === 0; i++) await new Promise((res) => setTimeout(res, 10));
    assert.ok(errors.length >= 1 && errors.every(isConnectionLoss));
    assert.equal(p.query('SELECT 1', []), undefined, 'within the retry pause the pool takes statements');
    clock.advance(1000);
    await connected(p);
    assert.equal((await backendsOf('lane-kill')).length, 1, 'one new lane connection');
  } finally {
    await p.close();
  }
});

test('the store sends statements outside transactions through the pipeline and transactions through the pool, with the same results', async () => {
  const store = await openPostgresStore(url, { migrations: [] });
  try {
    await store.run('CREATE TABLE IF NOT EXISTS st (id INTEGER PRIMARY KEY, big BIGINT NOT NULL)');
    const n = 50;
    const counts = await Promise.all(Array.from({ length: n }, (_, i) => store.run('INSERT INTO st (id, big) VALUES (?, ?)', [i, 1_700_000_000_000 + i])));
    assert.ok(counts.every((c) => c === 1));
    const rows = await Promise.all(Array.from({ length: n }, (_, i) => store.get<{ big: number }>('SELECT big FROM st WHERE id = ?', [i])));
    assert.deepEqual(rows.map((r) => r?.big), Array.from({ length: n }, (_, i) => 1_700_000_000_000 + i), 'BIGINT reads back as a number on both paths');
    await assert.rejects(store.run('INSERT INTO st (id, big) VALUES (?, ?)', [1, 0]), (e: Error & { code?: string }) => e.code === 'conflict');
    const inTx = await store.tx(async (sql) => (await sql.get<{ n: number }>('SELECT count(*)::int AS n FROM st'))!.n);
    assert.equal(inTx, n);
  } finally {
    await store.close();
  }
});
