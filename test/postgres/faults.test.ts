// End-to-end: two `agentteam server start` processes on one PostgreSQL 15 database under keyed write load survive pg_terminate_backend and a PostgreSQL restart: every failure typed, nothing acknowledged lost.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { ServerApi } from '../../src/server-client/api.js';
import { ServerCallError, ServerClient } from '../../src/server-client/client.js';
import { startCluster, type Cluster } from './cluster.js';
import { startServerProc, type ServerProc } from './server-proc.js';
import { serverClient } from '../../src/domains/registry.js';

let cluster: Cluster;
let db: string;
const dir = mkdtempSync(join(tmpdir(), 'agentteam-faults-'));
const procs: ServerProc[] = [];
let client: ServerClient;
let owner: ServerApi;

before(async () => {
  cluster = await startCluster();
  db = await cluster.createDatabase();
  const token = join(dir, 'admin.token');
  for (const name of ['a', 'b']) procs.push(await startServerProc(['--db', db, '--admin-token-file', token, '--log-file', join(dir, `${name}.log`)], join(dir, name)));
  client = serverClient({ baseUrl: procs[0]!.url, fallbackUrls: [procs[1]!.url], timeoutMs: 20_000 });
  const boot = await client.bootstrap(readFileSync(token, 'utf8').trim(), { ownerName: 'Owner' });
  owner = client.as(boot.ownerCredential!);
});
after(async () => {
  client?.close();
  await Promise.all(procs.map((p) => p.stop()));
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function terminateBackends(): Promise<number> {
  const c = new pg.Client({ connectionString: cluster.url });
  await c.connect();
  try {
    const name = decodeURIComponent(new URL(db).pathname.slice(1));
    const r = await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    return r.rowCount ?? 0;
  } finally {
    await c.end();
  }
}

test('pg_terminate_backend and a PostgreSQL restart under write load: both server processes live, failures typed, no acknowledged write lost', async () => {
  const acked = new Map<string, string>(); // key → task id
  const failures = new Map<string, number>();
  let stop = false;
  let seq = 0;
  const writer = async (w: number) => {
    for (let i = 0; !stop && i < 400; i++) {
      const key = `w${w}-${i}-${seq++}`;
      // A client retries its keyed write until acknowledged (bounded): the key makes every retry a replay.
      for (let attempt = 0; attempt < 60; attempt++) {
        try {
          const t = await owner.tasks.create({ title: `load ${key}` }, { idempotencyKey: key });
          acked.set(key, t.id);
          break;
        } catch (e) {
          const code = e instanceof ServerCallError ? `${e.code}/${e.httpStatus ?? e.kind}` : `untyped:${String(e)}`;
          failures.set(code, (failures.get(code) ?? 0) + 1);
          await pause(50);
        }
      }
    }
  };
  const load = Promise.all(Array.from({ length: 6 }, (_, w) => writer(w)));
  let terminated = 0;
  // Some writes are acknowledged first (bounded wait, not a fixed pause: a loaded machine may take seconds to start).
  for (let waited = 0; acked.size < 10 && waited < 60_000; waited += 50) await pause(50);
  for (let i = 0; i < 4; i++) {
    terminated += await terminateBackends();
    await pause(250);
  }
  const beforeRestart = acked.size;
  await cluster.restart();
  // Writes resume after the restart (bounded wait, generous for a loaded machine: the reconnect backoff is capped at 5 s).
  for (let waited = 0; acked.size < beforeRestart + 20 && waited < 120_000; waited += 100) await pause(100);
  stop = true;
  await load;

  assert.ok(terminated > 0, 'backends were really terminated under load');
  for (const p of procs) assert.ok(p.alive(), `no server process died: ${p.ended()}`);
  const codes = [...failures.keys()];
  assert.ok(codes.every((c) => /^(upstream_unavailable\/(502|network|timeout)|conflict\/409)$/.test(c)), `only typed, retryable failures: ${JSON.stringify(Object.fromEntries(failures))}`);
  assert.ok(!codes.some((c) => c.startsWith('internal')), 'never internal');
  assert.ok(beforeRestart > 0 && acked.size >= beforeRestart + 20, `writes went through before (${beforeRestart}) and after (${acked.size}) the restart`);
  // Nothing acknowledged is lost, and no key applied twice.
  const titles = new Map<string, number>();
  let cursor: string | undefined;
  for (;;) {
    const page = await owner.tasks.list({ limit: 100, ...(cursor ? { cursor } : {}) });
    for (const t of page.tasks) titles.set(t.title, (titles.get(t.title) ?? 0) + 1);
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  for (const [key] of acked) assert.equal(titles.get(`load ${key}`), 1, `acknowledged ${key} is stored exactly once`);
  // Both processes answer health with the database again, and logged the outage as structured JSON.
  for (const p of procs) assert.equal((await serverClient({ baseUrl: p.url }).health()).database, 'ok');
  const lines = readFileSync(join(dir, 'a.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { msg: string });
  assert.ok(lines.some((l) => l.msg === 'server listening'));
  assert.ok(lines.some((l) => /database (connection lost|unreachable)/.test(l.msg)), 'the outage is in the log');
});

test('/v1/health reports the database down while PostgreSQL is stopped, and ok again after', async () => {
  const a = serverClient({ baseUrl: procs[0]!.url });
  try {
    assert.equal((await a.health()).database, 'ok');
    await terminateBackends();
    const r = await a.health().catch((e) => e);
    // A terminated backend is reconnected at once: health is ok or a typed 502, never a crash.
    assert.ok(!(r instanceof Error) || (r instanceof ServerCallError && r.code === 'upstream_unavailable'), String(r));
    assert.ok(procs[0]!.alive());
  } finally {
    a.close();
  }
});
