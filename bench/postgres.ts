// Owns benchmark 7: the AgentTeam Server on PostgreSQL 15 against the embedded engine (SQLite) for task create and task list, and two server processes on one database against one.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { postgresAvailable, startCluster, type Cluster } from '../test/postgres/cluster.js';
import { startServerProc, type ServerProc } from '../test/postgres/server-proc.js';
import { cpuMs, runLoad, type LoadResult } from './load.js';
import { alternate, fmt, goal, med, ratio, table, type BenchOptions, type BenchReport } from './report.js';
import { serverClient } from '../src/domains/registry.js';

/** Load connections per measurement, always from two generator processes (half each), whatever the contender. */
export const PG_CONNECTIONS = 16;
const SEED_TASKS = 500;
const LIST_LIMIT = 50;

interface Contender {
  name: string;
  procs: ServerProc[];
  /** Owner credential of this contender's workspace. A secret: memory only. */
  credential: string;
  /** Database name for PostgreSQL contenders (its backends' CPU is counted separately). */
  database?: string;
}

/** Fresh members for one create measurement, one per load connection, each with its own credential (memory only): every
 * create is under the open-task bound (OPEN_TASKS_PER_MEMBER_MAX per creator) and each member starts at 0 open tasks. */
async function freshCreators(c: Contender): Promise<string[]> {
  const client = serverClient({ baseUrl: c.procs[0]!.url });
  try {
    const owner = client.as(c.credential);
    const out: string[] = [];
    for (let i = 0; i < PG_CONNECTIONS; i++) out.push((await client.join((await owner.members.invite({ name: `load${randomUUID().slice(0, 8)}`, role: 'member' })).code)).credential);
    return out;
  } finally {
    client.close();
  }
}

interface Measured extends LoadResult {
  serverCpuUsPerReq: number;
  pgCpuUsPerReq: number;
}

async function launch(name: string, dir: string, db: string, processes: number): Promise<Contender> {
  const token = join(dir, `${name}.admin-token`);
  const procs: ServerProc[] = [];
  for (let i = 0; i < processes; i++) procs.push(await startServerProc(['--db', db, '--admin-token-file', token, '--log-file', join(dir, `${name}-${i}.log`)], join(dir, `${name}-${i}`)));
  const c = serverClient({ baseUrl: procs[0]!.url });
  try {
    const boot = await c.bootstrap(readFileSync(token, 'utf8').trim(), { ownerName: 'Owner' });
    const owner = c.as(boot.ownerCredential!);
    for (let i = 0; i < SEED_TASKS; i += 25) await Promise.all(Array.from({ length: 25 }, (_, j) => owner.tasks.create({ title: `seed ${i + j}` })));
    return { name, procs, credential: boot.ownerCredential!, ...(db.startsWith('postgres') ? { database: decodeURIComponent(new URL(db).pathname.slice(1)) } : {}) };
  } finally {
    c.close();
  }
}

async function backendPids(cluster: Cluster, database: string | undefined): Promise<number[]> {
  if (!database) return [];
  const c = new pg.Client({ connectionString: cluster.url });
  await c.connect();
  try {
    return (await c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database])).rows.map((r) => r.pid);
  } finally {
    await c.end();
  }
}

/** Like cpuMs, but a backend that exited meanwhile counts as 0 (pool connections come and go). */
function cpuOf(pids: readonly number[]): number {
  return pids.reduce((s, p) => s + (() => {
    try {
      return cpuMs([p]);
    } catch {
      return 0;
    }
  })(), 0);
}

type Work = 'create' | 'list';

/** One measurement: two generators (PG_CONNECTIONS/2 each), to the contender's first and last process. */
async function measure(o: BenchOptions, cluster: Cluster, c: Contender, work: Work): Promise<Measured> {
  // Creates rotate over fresh members (one per connection, both engines alike); lists read as the owner.
  const creators = work === 'create' ? await freshCreators(c) : [];
  const headers = (gen: number) => (conn: number) => ({ authorization: `Bearer ${work === 'create' ? creators[gen * (PG_CONNECTIONS / 2) + conn]! : c.credential}`, 'content-type': 'application/json' });
  const body = Buffer.from(JSON.stringify({ title: 'bench task' }));
  const ports = [c.procs[0]!, c.procs.at(-1)!].map((p) => Number(new URL(p.url).port));
  const spec = (port: number, gen: number) => ({
    port,
    method: work === 'create' ? ('POST' as const) : ('GET' as const),
    path: () => (work === 'create' ? '/v1/tasks' : `/v1/tasks?limit=${LIST_LIMIT}`),
    headers: headers(gen),
    ...(work === 'create' ? { body: () => body } : {}),
    connections: PG_CONNECTIONS / 2,
    durationMs: o.durationMs,
    warmupMs: o.warmupMs,
    check: (s: number, b: string) => s >= 200 && s < 300 && b.startsWith('{"ok":true') && (work === 'create' || (b.match(/"id":"tsk/g) ?? []).length === LIST_LIMIT),
  });
  const pgPids = await backendPids(cluster, c.database);
  const nodePids = c.procs.map((p) => p.child.pid!);
  const n0 = cpuOf(nodePids);
  const p0 = cpuOf(pgPids);
  const rs = await Promise.all(ports.map((p, g) => runLoad(spec(p, g))));
  const nodeCpu = cpuOf(nodePids) - n0;
  const pgCpu = cpuOf(pgPids) - p0;
  const completed = rs.reduce((s, r) => s + r.completed, 0);
  const failures = rs.flatMap((r) => (r.firstFailure ? [r.firstFailure] : []));
  return {
    connections: PG_CONNECTIONS,
    ok: rs.reduce((s, r) => s + r.ok, 0),
    failed: rs.reduce((s, r) => s + r.failed, 0),
    rps: rs.reduce((s, r) => s + r.rps, 0),
    p50Ms: Math.max(...rs.map((r) => r.p50Ms)),
    p99Ms: Math.max(...rs.map((r) => r.p99Ms)),
    completed,
    serverCpuUsPerReq: (nodeCpu * 1000) / Math.max(1, completed),
    pgCpuUsPerReq: (pgCpu * 1000) / Math.max(1, completed),
    ...(failures.length ? { firstFailure: failures[0]! } : {}),
  };
}

export async function benchPostgres(o: BenchOptions): Promise<BenchReport> {
  if (!postgresAvailable()) throw new Error('PostgreSQL 15 binaries not found (set AGENTTEAM_PG_BIN)');
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-bench-pg-'));
  const cluster = await startCluster();
  const contenders: Contender[] = [];
  try {
    contenders.push(await launch('sqlite', dir, `sqlite:${join(dir, 'server.db')}`, 1));
    contenders.push(await launch('postgres x1', dir, await cluster.createDatabase('agentteam_b1'), 1));
    contenders.push(await launch('postgres x2', dir, await cluster.createDatabase('agentteam_b2'), 2));
    const rows: string[][] = [];
    const json: Record<string, unknown> = { connections: PG_CONNECTIONS, seedTasks: SEED_TASKS, listLimit: LIST_LIMIT };
    const goals = [];
    for (const work of ['create', 'list'] as const) {
      // A first pass warms every contender (JIT, pools, caches) before the alternating measured rounds.
      for (const c of contenders) await measure({ ...o, durationMs: 1000 }, cluster, c, work);
      const r = await alternate<Measured>(o.rounds, contenders.map((c) => ({ name: c.name, run: () => measure(o, cluster, c, work) })));
      const m = (n: string) => ({
        rps: med(r[n]!, (x) => x.rps),
        p50: med(r[n]!, (x) => x.p50Ms),
        p99: med(r[n]!, (x) => x.p99Ms),
        server: med(r[n]!, (x) => x.serverCpuUsPerReq),
        pg: med(r[n]!, (x) => x.pgCpuUsPerReq),
        failed: r[n]!.reduce((s, x) => s + x.failed, 0),
        firstFailure: r[n]!.find((x) => x.firstFailure)?.firstFailure,
      });
      const base = m('sqlite');
      for (const c of contenders) {
        const x = m(c.name);
        rows.push([`task ${work}`, c.name, fmt(x.rps, 0), fmt(ratio(x.rps, base.rps)), fmt(x.p50), fmt(x.p99), fmt(x.server, 0), c.database ? fmt(x.pg, 0) : '-', String(x.failed)]);
      }
      const one = m('postgres x1');
      const two = m('postgres x2');
      goals.push(goal(`task ${work}: PostgreSQL (1 server process) / SQLite req/s`, ratio(one.rps, base.rps), '>=', 0.8));
      json[work] = { sqlite: base, pg1: one, pg2: two, pg2OverPg1: ratio(two.rps, one.rps), rounds: r };
    }
    const t = table(['workload', 'server', 'req/s', 'x sqlite', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'PG CPU µs/req', 'failed'], rows);
    const note =
      `${PG_CONNECTIONS} connections from two autocannon processes (half each; "postgres x2" sends each half to its own server process on one database), ` +
      `${SEED_TASKS} seeded tasks, list pages of ${LIST_LIMIT}; each server is a real \`agentteam server start\` process (PostgreSQL 15, fsync off, on this machine). ` +
      `"server CPU" is the node server processes', "PG CPU" the PostgreSQL backends' (the SQLite engine runs inside the server process).`;
    return { name: 'postgres', table: `${t}\n${note}`, goals, json };
  } finally {
    await Promise.all(contenders.flatMap((c) => c.procs.map((p) => p.stop())));
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
