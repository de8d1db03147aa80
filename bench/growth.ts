// Owns benchmark 4: cost of growth: daemon RSS and MCP ping latency at 1, 100 and 500 live runtime authorizations; launch and revoke time.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { http } from '../test/harness.js';
import { runLoadWithCpu, type LoadResult } from './load.js';
import { alternate, fmt, goal, goalNear, med, ratio, table, type BenchOptions, type BenchReport } from './report.js';
import { startBaseline } from './baselines/common.js';
import { ceilingNote, measureCeiling } from './ceiling.js';
import { BenchDaemon, pool } from './setup.js';

export const LEVELS = [1, 100, 500] as const;
/** Visits up and back down, so every level but the top is measured twice and drift shows. */
const VISITS = [1, 100, 500, 100, 1] as const;

const PING = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}');

async function settle(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

/** Bare process cost for comparison: spawn `sleep 600` until its spawn event, then SIGTERM and wait for exit. */
function rawSpawnKill(): Promise<{ launchMs: number; stopMs: number }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn('sleep', ['600'], { stdio: 'ignore', detached: true });
    child.once('spawn', () => {
      const launchMs = performance.now() - t0;
      const t1 = performance.now();
      child.once('exit', () => resolve({ launchMs, stopMs: performance.now() - t1 }));
      process.kill(-child.pid!, 'SIGTERM');
    });
  });
}

export async function benchGrowth(o: BenchOptions): Promise<BenchReport> {
  const daemon = await BenchDaemon.launch();
  let stopBare = async (): Promise<void> => undefined;
  try {
    const agentId = await daemon.addAgent('grower');
    const probe = await daemon.launchWithTokens(agentId);
    const path = `/api/internal/mcp/servers/${daemon.serverId}/agents/${agentId}`;
    // A bare baseline measured in every visit, so machine noise cancels out of the level-to-level ratios.
    const bare = await startBaseline('bare', {
      serverUrl: daemon.serverUrl,
      credentials: { [agentId]: daemon.agentCredential(agentId) },
      tokens: [{ secret: probe.mcpToken, scope: 'mcp', serverId: daemon.serverId, agentId }],
    });
    stopBare = bare.stop;
    const ping = (connections: number, port = daemon.port) => () =>
      runLoadWithCpu({
        port,
        method: 'POST',
        path: () => path,
        headers: () => ({ authorization: `Bearer ${probe.mcpToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }),
        body: () => PING,
        connections,
        durationMs: o.durationMs,
        warmupMs: o.warmupMs,
        check: (s, b) => s === 200 && b.includes('"result"'),
      }, port === daemon.port ? [daemon.pid] : [bare.child.pid!]);
    await ping(16)(); // warm-up
    const ceiling = await measureCeiling(o, [1, 16]);
    const extra: string[] = [];
    let failed = 0;
    const visits: Array<{ level: number; rssKiB: number; p50Ms: number; p99Ms: number; rps1: number; bareRps1: number; rps16: number; bareP50Ms: number; bareRps16: number; cpuUs16: number; bareCpuUs16: number }> = [];
    for (const level of VISITS) {
      const want = level - 1; // the probe runtime is one of the live authorizations
      if (extra.length < want) {
        const add = await pool(Array.from({ length: want - extra.length }, (_, i) => i), 8, () => daemon.launchSleep(agentId));
        extra.push(...add);
      } else if (extra.length > want) {
        const drop = extra.splice(want);
        await pool(drop, 8, (id) => daemon.stopRuntime(id));
      }
      await settle(o.quick ? 500 : 1500);
      const status = await daemon.owner('GET', '/api/daemon/status');
      if (status.counts.runtimes !== level) throw new Error(`expected ${level} live runtimes, daemon reports ${status.counts.runtimes}`);
      const r = await alternate<LoadResult & { cpuUsPerReq: number }>(o.rounds, [
        { name: '1', run: ping(1) },
        { name: 'bare1', run: ping(1, bare.port) },
        { name: '16', run: ping(16) },
        { name: 'bare16', run: ping(16, bare.port) },
      ]);
      const rss = daemon.rssKiB();
      visits.push({
        level,
        rssKiB: rss,
        p50Ms: med(r['1']!, (x) => x.p50Ms),
        p99Ms: med(r['1']!, (x) => x.p99Ms),
        rps1: med(r['1']!, (x) => x.rps),
        bareRps1: med(r['bare1']!, (x) => x.rps),
        rps16: med(r['16']!, (x) => x.rps),
        bareP50Ms: med(r['bare1']!, (x) => x.p50Ms),
        bareRps16: med(r['bare16']!, (x) => x.rps),
        cpuUs16: med(r['16']!, (x) => x.cpuUsPerReq),
        bareCpuUs16: med(r['bare16']!, (x) => x.cpuUsPerReq),
      });
      failed += Object.values(r).flat().reduce((n, x) => n + x.failed, 0);
    }

    // Launch and revoke one runtime (at 1 live authorization), alternating with a bare spawn/kill of the same command.
    const launches: number[] = [];
    const stops: number[] = [];
    let deadAfterStop = 0;
    const raw = await alternate<unknown>(o.rounds, [
      {
        name: 'ours',
        run: async () => {
          const t0 = performance.now();
          const runId = await daemon.launchSleep(agentId);
          launches.push(performance.now() - t0);
          const t1 = performance.now();
          await daemon.stopRuntime(runId);
          stops.push(performance.now() - t1);
          return 0;
        },
      },
      { name: 'raw', run: rawSpawnKill },
    ]);
    // A stopped runtime's token is dead at once (what "revoke" means); checked with a runtime whose token we hold.
    for (let i = 0; i < (o.quick ? 2 : 3); i++) {
      const rt = await daemon.launchWithTokens(agentId);
      await daemon.stopRuntime(rt.runId);
      const res = await http(daemon.port, 'POST', path, { headers: { authorization: `Bearer ${rt.mcpToken}`, 'content-type': 'application/json', accept: 'application/json', host: `127.0.0.1:${daemon.port}` }, body: PING });
      if (res.status === 403) deadAfterStop++;
    }
    const rawRuns = raw['raw'] as Array<{ launchMs: number; stopMs: number }>;
    const rawLaunch = med(rawRuns, (x) => x.launchMs);
    const rawStop = med(rawRuns, (x) => x.stopMs);

    // Per level: medians over its visits; latency and throughput as ours/bare measured in the same visit, then relative to 1 authorization.
    const at = (level: number) => visits.filter((v) => v.level === level);
    const summary = (level: number) => {
      const vs = at(level);
      return {
        level,
        rssKiB: med(vs, (v) => v.rssKiB),
        p50Ms: med(vs, (v) => v.p50Ms),
        p99Ms: med(vs, (v) => v.p99Ms),
        rps16: med(vs, (v) => v.rps16),
        p50OverBare: med(vs, (v) => ratio(v.p50Ms, v.bareP50Ms)),
        rpsOverBare: med(vs, (v) => ratio(v.rps16, v.bareRps16)),
        cpuUs16: med(vs, (v) => v.cpuUs16),
      };
    };
    const levels = LEVELS.map(summary);
    const base = levels[0]!;
    const rows = levels.map((l) => [
      String(l.level),
      fmt(l.rssKiB / 1024, 1),
      fmt(ratio(l.rssKiB, base.rssKiB)),
      fmt(l.p50Ms, 3),
      fmt(l.p99Ms, 3),
      fmt(ratio(l.p50OverBare, base.p50OverBare)),
      fmt(l.rps16, 0),
      fmt(ratio(l.rpsOverBare, base.rpsOverBare)),
      fmt(l.cpuUs16, 0),
      fmt(ratio(l.cpuUs16, base.cpuUs16)),
    ]);
    const top = levels[levels.length - 1]!;
    const fastest = new Map([[1, Math.max(...visits.map((v) => Math.max(v.rps1, v.bareRps1)))], [16, Math.max(...visits.map((v) => Math.max(v.rps16, v.bareRps16)))]]);
    const cn = ceilingNote(ceiling, fastest);
    const goals = [
      goal('daemon CPU per ping (16 conns) at 500 / at 1 authorization', ratio(top.cpuUs16, base.cpuUs16), '<=', 1.25),
      goal('ping p50 at 500 / at 1 authorization (each vs bare in the same visit)', ratio(top.p50OverBare, base.p50OverBare), '<=', 1.25),
      goalNear('ping req/s (16 conns) at 500 / at 1 (each vs bare in the same visit)', ratio(top.rpsOverBare, base.rpsOverBare), '>=', 0.8, cn.unreliable.get(16)),
    ];
    const t1 = table(['live auths', 'RSS MiB', 'x @1', 'ping p50 ms', 'p99 ms', 'p50 x @1*', 'req/s @16', 'x @1*', 'CPU us/ping', 'x @1'], rows);
    const launchMs = med(launches, (x) => x);
    const stopMs = med(stops, (x) => x);
    const t2 = table(
      ['operation', 'ours ms', 'bare spawn/kill ms', 'x bare'],
      [
        ['launch one runtime (owner POST, detached)', fmt(launchMs), fmt(rawLaunch), fmt(ratio(launchMs, rawLaunch))],
        ['revoke one runtime (owner stop → exited, revoked, file gone)', fmt(stopMs), fmt(rawStop), fmt(ratio(stopMs, rawStop))],
      ],
    );
    const note = `${cn.text}.\nlevels visited ${VISITS.join(' → ')} (RSS: one read per visit; latency: ${o.rounds} rounds per visit, 1 connection for p50/p99, 16 for req/s). Token dead right after stop: ${deadAfterStop}/${o.quick ? 2 : 3}. Failed requests: ${failed}.\n* ours/bare in the same visit, relative to that ratio at 1 authorization (cancels machine noise between visits).`;
    const t0 = table(
      ['visit', 'live auths', 'RSS MiB', 'ping p50 ms', 'bare p50 ms', 'req/s @16', 'bare req/s @16', 'CPU us/ping', 'bare CPU us/ping'],
      visits.map((v, i) => [String(i + 1), String(v.level), fmt(v.rssKiB / 1024, 1), fmt(v.p50Ms, 3), fmt(v.bareP50Ms, 3), fmt(v.rps16, 0), fmt(v.bareRps16, 0), fmt(v.cpuUs16, 0), fmt(v.bareCpuUs16, 0)]),
    );
    return { name: 'growth', table: `${t0}\n\n${t1}\n${note}\n\n${t2}`, goals, json: { visits, levels, failed, launchMs: launches, stopMs: stops, raw: rawRuns, deadAfterStop } };
  } finally {
    await stopBare();
    await daemon.dispose();
  }
}
