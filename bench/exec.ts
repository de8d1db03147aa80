// Owns benchmark 2: Exec POST task/list vs the bare baseline, and `agentteam exec` as a process vs bare `node -e 0` start-up.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { BIN } from '../test/harness.js';
import { startBaseline } from './baselines/common.js';
import { runLoadWithCpu, type LoadResult } from './load.js';
import type { McpFixture } from './mcp.js';
import { alternate, fmt, goal, med, nearCeiling, ratio, table, type BenchOptions, type BenchReport } from './report.js';
import { serverClient } from '../src/domains/registry.js';

const SEED_TASKS = 50;
export const EXEC_CONNECTIONS = [1, 32] as const;

/** Wall time of one process from spawn to exit, and whether it exited 0 with the expected stdout. */
export function timeProcess(cmd: string, args: string[], env: NodeJS.ProcessEnv, expect: (stdout: string) => boolean): Promise<{ ms: number; ok: boolean }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.resume();
    child.on('close', (code) => resolve({ ms: performance.now() - t0, ok: code === 0 && expect(out) }));
  });
}

/** The bench's environment without any AGENTTEAM variable (a clean shell for the CLI). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^agentteam_/i.test(k) && !/^npm_/i.test(k)) env[k] = v;
  return { ...env, ...extra };
}

export async function benchExec(fx: McpFixture, o: BenchOptions): Promise<BenchReport> {
  const { daemon, agentId, runtimes } = fx;
  const api = serverClient({ baseUrl: daemon.serverUrl });
  try {
    const agentApi = api.as(daemon.agentCredential(agentId));
    for (let i = 0; i < SEED_TASKS; i++) await agentApi.tasks.create({ title: `bench task ${i}`, description: 'seeded for the Exec benchmark' });
  } finally {
    api.close();
  }
  const rows: string[][] = [];
  const goals = [];
  const cells: Record<string, unknown>[] = [];
  const path = `/api/internal/exec/servers/${daemon.serverId}/agents/${agentId}/task/list`;
  const body = Buffer.from('{}');
  const bare = await startBaseline('bare', fx.baselineConfig);
  const trivial = await startBaseline('trivial', fx.baselineConfig);
  try {
    const pids = new Map([[daemon.port, [daemon.pid]], [bare.port, [bare.child.pid!, daemon.pid]], [trivial.port, [trivial.child.pid!]]]);
    const load = (port: number, connections: number, durationMs = o.durationMs, warmupMs = o.warmupMs) => () =>
      runLoadWithCpu({
        port,
        method: 'POST',
        path: () => path,
        headers: (c) => ({ authorization: `Bearer ${runtimes[c % runtimes.length]!.execToken}`, 'content-type': 'application/json' }),
        body: () => body,
        connections,
        durationMs,
        warmupMs,
        ...(port === trivial.port ? {} : { check: (s: number, b: string) => s === 200 && b.startsWith('{"ok":true') && b.includes('"tasks":[{') }),
      }, pids.get(port)!);
    await load(daemon.port, 32, 1000, 0)();
    await load(bare.port, 32, 1000, 0)();
    for (const connections of EXEC_CONNECTIONS) {
      const r = await alternate<LoadResult & { cpuUsPerReq: number }>(o.rounds, [
        { name: 'ours', run: load(daemon.port, connections) },
        { name: 'bare', run: load(bare.port, connections) },
        { name: 'ceiling', run: load(trivial.port, connections) },
      ]);
      const m = (n: string) => ({ rps: med(r[n]!, (x) => x.rps), p50: med(r[n]!, (x) => x.p50Ms), p99: med(r[n]!, (x) => x.p99Ms), cpuUs: med(r[n]!, (x) => x.cpuUsPerReq), failed: r[n]!.reduce((s, x) => s + x.failed, 0) });
      const ours = m('ours');
      const b = m('bare');
      rows.push([`POST task/list @${connections}`, 'ours', fmt(ours.rps, 0), fmt(ours.p50), fmt(ours.p99), fmt(ratio(ours.rps, b.rps)), fmt(ratio(ours.p99, b.p99)), fmt(ours.cpuUs, 0), fmt(ratio(ours.cpuUs, b.cpuUs)), String(ours.failed)]);
      rows.push([`POST task/list @${connections}`, 'bare', fmt(b.rps, 0), fmt(b.p50), fmt(b.p99), '1.00', '1.00', fmt(b.cpuUs, 0), '1.00', String(b.failed)]);
      const c = m('ceiling');
      const near = nearCeiling(Math.max(ours.rps, b.rps), c.rps);
      if (near) rows[rows.length - 2]![5] += '~';
      rows.push([`POST task/list @${connections}`, 'ceiling', fmt(c.rps, 0), fmt(c.p50), fmt(c.p99), `${fmt(ratio(Math.max(ours.rps, b.rps), c.rps))} fastest/ceiling`, '', fmt(c.cpuUs, 0), '', String(c.failed)]);
      cells.push({ what: 'task/list', connections, ours, bare: b, ceiling: c, unreliable: near ?? null, rounds: r });
    }
  } finally {
    await bare.stop();
    await trivial.stop();
  }

  // Processes: alternate A B A B …, several spawns per round, median over all spawns.
  const perRound = o.quick ? 3 : 6;
  const rt = runtimes[0]!;
  const node = () => timeProcess(process.execPath, ['-e', '0'], cleanEnv(), () => true);
  const help = () => timeProcess(process.execPath, [BIN, 'exec', 'task', 'list', '--help'], cleanEnv(), (s) => s.includes('agentteam exec task list'));
  const e2e = () =>
    timeProcess(process.execPath, [BIN, 'exec', 'task', 'list'], cleanEnv({ AGENTTEAM_EXEC_BASE_URL: rt.execBaseUrl, AGENTTEAM_EXEC_TOKEN_FILE: rt.execTokenFile }), (s) => /^\{\s*"ok":\s*true/.test(s));
  const batch = (f: () => Promise<{ ms: number; ok: boolean }>) => async () => {
    const xs = [];
    for (let i = 0; i < perRound; i++) xs.push(await f());
    return xs;
  };
  for (const f of [node, help, e2e]) await f(); // warm the page cache
  const p = await alternate(o.rounds, [
    { name: 'node -e 0', run: batch(node) },
    { name: 'exec task list --help', run: batch(help) },
    { name: 'exec task list (end to end)', run: batch(e2e) },
  ]);
  const nodeMs = med(p['node -e 0']!.flat(), (x) => x.ms);
  const procRows: string[][] = [];
  for (const [name, xs] of Object.entries(p)) {
    const all = xs.flat();
    const ms = med(all, (x) => x.ms);
    procRows.push([name, String(all.length), fmt(ms), fmt(ratio(ms, nodeMs)), String(all.filter((x) => !x.ok).length)]);
    cells.push({ what: 'process', name, medianMs: ms, overNode: ratio(ms, nodeMs), samples: all.map((x) => Number(x.ms.toFixed(2))), failed: all.filter((x) => !x.ok).length });
  }
  const helpMs = med(p['exec task list --help']!.flat(), (x) => x.ms);
  goals.push(goal('exec --help start-up / node -e 0', ratio(helpMs, nodeMs), '<=', 1.6));
  const t1 = table(['route', 'server', 'req/s', 'p50 ms', 'p99 ms', 'rps x bare', 'p99 x bare', 'CPU us/req', 'CPU x bare', 'failed'], rows);
  const t2 = table(['process', 'runs', 'median ms', 'x node -e 0', 'failed'], procRows);
  const note = 'ceiling = trivial node:http server driven by the same autocannon process in the same rounds; ~ = unreliable (fastest ≥ 80 % of it).\n' + 'bare = node:http + same auth checks + ServerClient.listTasks, raw server DTOs (no admission, fences, schema validation, budget or projection).\nCPU us/req = user+system CPU of the daemon (ours) or bare + daemon (bare; its embedded server answers both) per answered request.';
  return { name: 'exec', table: `${t1}\n${note}\n\n${t2}`, goals, json: { seedTasks: SEED_TASKS, cells } };
}
