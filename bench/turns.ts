// Owns the turn latency bench (--only=turns): commit of a message addressed to a `command` agent → its runtime started, p50/p99.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BenchDaemon } from './setup.js';
import { fmt, goal, table, type BenchOptions, type BenchReport } from './report.js';

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}

/**
 * One message at a time (no queueing): the server's createdAt (ms, at the insert just before commit) against the wall
 * time the runtime's first command ran (`date +%s%N`, so slightly after the process started: the figure errs high).
 */
export async function benchTurns(o: BenchOptions): Promise<BenchReport> {
  const daemon = await BenchDaemon.launch();
  try {
    const file = join(daemon.scratch, 'starts.log');
    const r = await daemon.d.run(['agent', 'add', '--name', 'lat', '--runtime', 'command', '--', 'sh', '-c', `date +%s%N >> '${file}'; cat > /dev/null`]);
    if (r.code !== 0) throw new Error(`agent add failed: ${r.stderr}`);
    const n = o.quick ? 15 : 60;
    const lat: number[] = [];
    const created: number[] = [];
    const lines = () => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : []);
    for (let i = 0; i < n + 3; i++) {
      const m = await daemon.owner('POST', '/api/daemon/messages', { target: 'channel:general', content: `@lat ping ${i}` });
      for (let k = 0; k < 1000 && lines().length <= i; k++) await new Promise((res) => setTimeout(res, 5));
      const started = Number(BigInt(lines()[i]!) / 1_000_000n);
      // The first three warm the path (prompt compiler, statement caches); they are not counted.
      created.push(Date.parse(m.createdAt));
      if (i >= 3) lat.push(started - Date.parse(m.createdAt));
      // Let the turn end before the next message, so each one is a lone commit → start.
      await new Promise((res) => setTimeout(res, 30));
    }
    // The parts, from the daemon's journal: commit → the daemon has the turn (push + HTTP), → the turn is marked running
    // (queue pick), → the runtime's first command ran (launch: authorization, credential files, spawn).
    const logs = JSON.parse((await daemon.d.run(['agent', 'logs', 'lat', '--json', '--limit', '100'])).stdout) as { turns: Array<{ receivedAt: number; startedAt: number }> };
    const starts = lines().map((l) => Number(BigInt(l) / 1_000_000n));
    const rec = logs.turns.slice().reverse().slice(3);
    const part = (f: (t: { receivedAt: number; startedAt: number }, i: number) => number) => quantile(rec.map(f), 0.5);
    const feed = part((t, i) => t.receivedAt - created[i + 3]!);
    const pick = part((t) => t.startedAt - t.receivedAt);
    const launch = part((t, i) => starts[i + 3]! - t.startedAt);
    const p50 = quantile(lat, 0.5);
    const p99 = quantile(lat, 0.99);
    return {
      name: 'turns',
      table: table(
        ['path', 'samples', 'p50 ms', 'p99 ms', 'max ms', 'p50 feed', 'p50 pick', 'p50 launch'],
        [['commit → runtime start (embedded server)', String(lat.length), fmt(p50, 1), fmt(p99, 1), fmt(Math.max(...lat), 1), fmt(feed, 1), fmt(pick, 1), fmt(launch, 1)]],
      ),
      goals: [goal('commit → runtime start p50 ms (embedded)', p50, '<=', 20)],
      json: { samples: lat, p50, p99, feed, pick, launch },
    };
  } finally {
    await daemon.dispose();
  }
}
