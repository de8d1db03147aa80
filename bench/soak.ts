// Owns the soak benchmark (`npm run soak -- --bench`): answering `command` agents in #general at 1, 12 and 100 agents:
// sustained turns/s, commit -> runtime start p50/p99, daemon RSS (daemon + embedded server thread) and CPU per turn
// (the agents' own processes not included). --max-turns 8.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { journal, quantile, readLog } from '../test/soak/check.js';
import { World } from '../test/soak/scenario.js';

const TICK_MS = 10; // USER_HZ 100 on Linux: /proc/<pid>/stat times are in 10 ms ticks.

function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) * TICK_MS; // utime + stime
}
function rssMiB(pid: number): { rss: number; hwm: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) / 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

export interface SoakBenchRow { agents: number; turns: number; seconds: number; turnsPerS: number; p50: number; p99: number; rssMiB: number; peakMiB: number; cpuMsPerTurn: number }

/**
 * One size: `agents` answerers in #general. Latency: one mention at a time, each waited for (commit -> runtime start
 * with a free slot). Throughput: then a burst of `perAgent` mentions per agent, timed until every turn has finished.
 */
export async function benchSize(agents: number, perAgent: number, samples: number, maxTurns: number): Promise<SoakBenchRow> {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-soakbench-'));
  const w = new World({ agents, loops: 0, seconds: 0, kills: 0, backlog: 0, turnTimeout: 30, loopBound: 6, maxTurns, seed: 1, dir });
  const finished = () => journal(w.d.home).filter((r) => r.status === 'done' || r.status === 'failed').length;
  const until = async (fn: () => boolean, ms: number) => {
    for (const end = Date.now() + ms; Date.now() < end && !fn(); ) await new Promise((r) => setTimeout(r, 20));
  };
  try {
    await w.start();
    for (let i = 0; i < agents; i++) await w.addAgent(`ans${i}`, 'answer');
    await new Promise((r) => setTimeout(r, 1000));
    const lat: number[] = [];
    for (let k = 0; k < samples; k++) {
      const a = w.agents[k % agents]!;
      const m = await w.api.messages.send({ target: 'channel:general', content: `@${a.name} ping ${k}` });
      const at = Date.parse(m.createdAt);
      await until(() => readLog(a.log).some((r) => r.ev === 'start' && r.id === m.id), 30_000);
      const s = readLog(a.log).find((r) => r.ev === 'start' && r.id === m.id);
      if (s) lat.push(s.t - at);
      const before = k + 1;
      await until(() => finished() >= before, 30_000);
    }
    const base = finished();
    const cpu0 = cpuMs(w.d.pid);
    const t0 = Date.now();
    for (let k = 0; k < perAgent; k++) for (const a of w.agents) await w.api.messages.send({ target: 'channel:general', content: `@${a.name} job ${k}` });
    await until(() => finished() >= base + agents * perAgent, 600_000);
    const done = finished() - base;
    const elapsed = (Date.now() - t0) / 1000;
    const cpu = cpuMs(w.d.pid) - cpu0;
    const mem = rssMiB(w.d.pid);
    return { agents, turns: done, seconds: elapsed, turnsPerS: done / elapsed, p50: quantile(lat, 0.5), p99: quantile(lat, 0.99), rssMiB: mem.rss, peakMiB: mem.hwm, cpuMsPerTurn: cpu / Math.max(1, done) };
  } finally {
    w.close();
    await w.d.stop();
    rmSync(w.d.home, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function main(argv: string[]): Promise<number> {
  const sizes = (argv.find((a) => a.startsWith('--sizes='))?.slice(8) ?? '1,12,100').split(',').map(Number);
  console.log(`soak bench: node ${process.version}, ${cpus().length} CPUs, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const rows: SoakBenchRow[] = [];
  for (const n of sizes) rows.push(await benchSize(n, n === 1 ? 30 : n <= 12 ? 5 : 1, 30, 8));
  console.log('| agents | burst turns | turns/s sustained | commit -> start p50 / p99 (ms, one at a time) | daemon RSS end / peak (MiB) | daemon CPU per turn (ms) |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.agents} | ${r.turns} | ${r.turnsPerS.toFixed(1)} | ${r.p50} / ${r.p99} | ${r.rssMiB.toFixed(0)} / ${r.peakMiB.toFixed(0)} | ${r.cpuMsPerTurn.toFixed(1)} |`);
  console.log(`load average at end ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  return 0;
}
