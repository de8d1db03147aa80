// Owns the memory_search benchmark: p50/p99 on 10,000 generated Markdown files (~20 MB) against rg over the same folder, index build time, change-to-searchable delay.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MemorySearch } from '../src/memorysearch/service.js';
import type { ServerApi } from '../src/server-client/api.js';
import { systemClock } from '../src/shared/clock.js';
import { createAgentteamHandler } from '../src/tools/agentteam/handler.js';
import { tokenInfo } from '../src/tools/agentteam/testkit.js';
import { rng, writeNotes } from './corpus.js';
import { fmt, goal, table, type BenchOptions, type BenchReport } from './report.js';

export const FILES = 10_000;
const FILE_BYTES = 2000;
const AGENT = 'agt_bench';

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

function rgAvailable(): boolean {
  return spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;
}

export async function benchMemory(o: BenchOptions): Promise<BenchReport> {
  const home = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  try {
    const memory = new MemorySearch({ memoryRoot: join(home, 'memory'), indexRoot: join(home, 'memory-index'), clock: systemClock });
    const dir = memory.dir(AGENT);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { bytes, vocab } = writeNotes(dir, { files: FILES, fileBytes: FILE_BYTES });
    const t0 = performance.now();
    memory.ensure(AGENT);
    await memory.index(AGENT).scan();
    const buildMs = performance.now() - t0;
    const h = createAgentteamHandler({ memory });
    const ctx = { info: tokenInfo('srv', AGENT, home), signal: new AbortController().signal, api: {} as ServerApi };

    // Query mix: rare words (the long tail), mid-frequency words, and two-word queries.
    const r = rng(7);
    const pick = (lo: number, hi: number) => vocab[Math.floor(lo + r() * (hi - lo))]!;
    const queries = [
      ...Array.from({ length: 20 }, () => pick(4000, 8000)),
      ...Array.from({ length: 10 }, () => pick(800, 2000)),
      ...Array.from({ length: 10 }, () => `${pick(2000, 8000)} ${pick(2000, 8000)}`),
    ];
    const iterations = o.quick ? 400 : 4000;
    const times: number[] = [];
    let hits = 0;
    for (let i = 0; i < iterations + 200; i++) {
      const q = queries[i % queries.length]!;
      const s = performance.now();
      const res = await h.callTool(ctx, AGENT, 'memory_search', { query: q, limit: 5 });
      const dt = performance.now() - s;
      if (res.isError) throw new Error(`memory_search failed: ${res.content[0]?.text}`);
      if (i >= 200) times.push(dt); // the first 200 warm the caches
      hits += (res.structuredContent as { hits: unknown[] }).hits.length;
    }
    const p50 = percentile(times, 50);
    const p99 = percentile(times, 99);

    let rgP50 = NaN;
    let rgP99 = NaN;
    const haveRg = rgAvailable();
    if (haveRg) {
      const rgTimes: number[] = [];
      const runs = o.quick ? 10 : 40;
      for (let i = 0; i < runs + 2; i++) {
        const q = queries[i % queries.length]!.split(' ')[0]!;
        const s = performance.now();
        const out = spawnSync('rg', ['-n', '-i', '-F', '--max-columns', '200', '--', q, dir], { maxBuffer: 256 * 1024 * 1024 });
        const dt = performance.now() - s;
        if (out.status !== 0 && out.status !== 1) throw new Error('rg failed');
        if (i >= 2) rgTimes.push(dt);
      }
      rgP50 = percentile(rgTimes, 50);
      rgP99 = percentile(rgTimes, 99);
    }

    // Change → searchable: write a file with a fresh word, then search until it is found (watcher + flush on search).
    const delays: number[] = [];
    for (let i = 0; i < (o.quick ? 5 : 20); i++) {
      const fresh = `freshword${i}x${Math.floor(r() * 1e9)}`;
      const s = performance.now();
      writeFileSync(join(dir, 'topic0', `n${i}.md`), `# changed\n\n- 2026-12-01: ${fresh}\n`);
      for (;;) {
        const res = await h.callTool(ctx, AGENT, 'memory_search', { query: fresh, limit: 1 });
        if ((res.structuredContent as { hits?: unknown[] }).hits?.length) break;
        if (performance.now() - s > 10_000) throw new Error('a change was not searchable within 10 s');
        await new Promise((res) => setTimeout(res, 1));
      }
      delays.push(performance.now() - s);
    }
    memory.close();
    const changeMs = percentile(delays, 50);
    const changeMax = Math.max(...delays);
    const speedup = rgP50 / p50;

    const rows = [
      ['memory_search (handler.callTool)', fmt(p50, 3), fmt(p99, 3), String(times.length)],
      [haveRg ? 'rg -n -i -F over the folder' : 'rg (not installed: apt-get install ripgrep)', fmt(rgP50, 1), fmt(rgP99, 1), haveRg ? String(o.quick ? 10 : 40) : '0'],
    ];
    const tableText = [
      `${FILES} files, ${(bytes / 1e6).toFixed(1)} MB of Markdown; index build ${fmt(buildMs / 1000, 2)} s; ${(hits / iterations).toFixed(1)} hits/query (limit 5)`,
      table(['search', 'p50 ms', 'p99 ms', 'n'], rows),
      `change → searchable: p50 ${fmt(changeMs, 1)} ms, max ${fmt(changeMax, 1)} ms (${delays.length} edits)`,
      haveRg ? `memory_search is ${fmt(speedup, 0)}× faster than rg at p50` : 'rg is not installed: the speed-up is not measured',
    ].join('\n');
    const goals = [goal('memory_search p50 ms', p50, '<=', 1), goal('change searchable ms (max)', changeMax, '<=', 1000)];
    if (haveRg) goals.push(goal('speed-up vs rg (p50)', speedup, '>=', 100));
    return { name: 'memory', table: tableText, goals, json: { files: FILES, bytes, buildMs, p50, p99, rgP50, rgP99, haveRg, changeMsP50: changeMs, changeMsMax: changeMax, speedup } };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
