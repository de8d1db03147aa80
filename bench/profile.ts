// Owns `node --import tsx bench/profile.ts <workload> [seconds] [connections] [runtimes]`: CPU-profiles a real daemon (node --cpu-prof) under one load and prints where self time goes.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { http } from '../test/harness.js';
import { noteLines, rng, vocabulary } from './corpus.js';
import { join } from 'node:path';
import { runLoad } from './load.js';
import { BenchDaemon, pool } from './setup.js';
import { serverClient } from '../src/domains/registry.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** Maps a line of an esbuild bundle to the source module it came from (esbuild writes a `// path` comment before each module). */
export function bundleModules(bundleText: string): (line: number) => string {
  const marks: Array<[number, string]> = [];
  bundleText.split('\n').forEach((l, i) => {
    const m = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(l);
    if (m) marks.push([i + 1, m[1]!]);
  });
  return (line) => {
    let lo = 0;
    let hi = marks.length - 1;
    let best = '(bundle)';
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (marks[mid]![0] <= line) (best = marks[mid]![1]), (lo = mid + 1);
      else hi = mid - 1;
    }
    return best;
  };
}

/** Self time from a .cpuprofile, largest first, as a share of all samples: by function (name + module) and by module. */
export function selfTime(profile: { nodes: ProfileNode[] }, moduleOf: (url: string, line: number) => string): { byFunction: Array<{ key: string; share: number }>; byModule: Array<{ key: string; share: number }> } {
  const fns = new Map<string, number>();
  const mods = new Map<string, number>();
  let total = 0;
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    total += hits;
    const mod = moduleOf(n.callFrame.url, n.callFrame.lineNumber + 1);
    const key = `${n.callFrame.functionName || '(anonymous)'} ${mod}`;
    fns.set(key, (fns.get(key) ?? 0) + hits);
    mods.set(mod, (mods.get(mod) ?? 0) + hits);
  }
  const sorted = (m: Map<string, number>) => [...m.entries()].map(([key, h]) => ({ key, share: h / Math.max(1, total) })).sort((a, b) => b.share - a.share);
  return { byFunction: sorted(fns), byModule: sorted(mods) };
}

const WORKLOADS = {
  ping: { kind: 'mcp', body: { jsonrpc: '2.0', id: 1, method: 'ping' } },
  'tools/list': { kind: 'mcp', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
  'tools/call': { kind: 'mcp', body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'message_history_read', arguments: { target: 'channel:general', limit: 20 } } } },
  'task/list': { kind: 'exec', body: {} },
  // memory_search on 2,000 generated notes in the runtime's clone: a rare word, and a query with no words (the tools/call
  // path without a search: validation, dispatch, the typed error).
  memory_search: { kind: 'mcp', body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'memory_search', arguments: { query: 'zzrareword', limit: 5 } } } },
  'memory_search/no-words': { kind: 'mcp', body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'memory_search', arguments: { query: '***', limit: 5 } } } },
} as const;

async function main(): Promise<void> {
  const name = (process.argv[2] ?? 'ping') as keyof typeof WORKLOADS;
  const seconds = Number(process.argv[3] ?? 5);
  const connections = Number(process.argv[4] ?? 32);
  // 1: every connection on one authorization; 16: spread like the bench (connection i on runtime i mod 16).
  const runtimes = Number(process.argv[5] ?? 1);
  const w = WORKLOADS[name];
  if (!w) throw new Error(`workload is one of: ${Object.keys(WORKLOADS).join(', ')}`);
  const daemon = new BenchDaemon();
  const profDir = join(daemon.scratch, 'prof');
  try {
    await daemon.start();
    const agentId = await daemon.addAgent('profiled');
    // The same home, now run as our child under --cpu-prof; it writes the profile when it exits.
    const child = await daemon.restartWith([`--cpu-prof`, `--cpu-prof-dir=${profDir}`]);
    const exited = new Promise((r) => child.once('exit', r));
    await pool(Array.from({ length: 50 }, (_, i) => i), 4, (i) => daemon.owner('POST', '/api/daemon/messages', { target: 'channel:general', content: `seed ${i} ${'lorem ipsum '.repeat(8)}` }));
    const api = serverClient({ baseUrl: daemon.serverUrl });
    for (let i = 0; i < 50; i++) await api.as(daemon.agentCredential(agentId)).tasks.create({ title: `t${i}` });
    api.close();
    if (name.startsWith('memory_search')) await seedMemory(daemon, agentId);
    const rts = await pool(Array.from({ length: runtimes }, (_, i) => i), 4, () => daemon.launchWithTokens(agentId));
    const path = w.kind === 'mcp' ? `/api/internal/mcp/servers/${daemon.serverId}/agents/${agentId}` : `/api/internal/exec/servers/${daemon.serverId}/agents/${agentId}/task/list`;
    const body = Buffer.from(JSON.stringify(w.body));
    const r = await runLoad({
      port: daemon.port,
      method: 'POST',
      path: () => path,
      headers: (c) => ({ authorization: `Bearer ${w.kind === 'mcp' ? rts[c % runtimes]!.mcpToken : rts[c % runtimes]!.execToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' }),
      body: () => body,
      connections,
      durationMs: seconds * 1000,
      warmupMs: 1000,
    });
    process.stdout.write(`${name} @${connections} conns on ${runtimes} authorization(s): ${r.rps.toFixed(0)} req/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, failed ${r.failed}\n`);
    for (const rt of rts) await daemon.stopRuntime(rt.runId);
    child.kill('SIGTERM');
    await exited;
    const files = readdirSync(profDir).map((f) => join(profDir, f));
    // The daemon writes one profile per thread: the main thread (MCP/Exec transport) and the embedded server's worker.
    // The two largest are those (the short-lived CLI processes write small ones).
    const biggest = files.sort((a, b) => readFileSync(b).length - readFileSync(a).length).slice(0, 2);
    const dist = join(import.meta.dirname, '..', 'dist');
    // Every bundle file: the entries and the chunks they share (the daemon and the server live in chunks).
    const bundles = new Map(readdirSync(dist).filter((f) => f.endsWith('.mjs')).map((f) => [`/dist/${f}`, bundleModules(readFileSync(join(dist, f), 'utf8'))]));
    const moduleOf = (url: string, line: number) => {
      for (const [suffix, of] of bundles) if (url.endsWith(suffix)) return of(line);
      return url.replace(/^.*\/node_modules\//, 'node_modules/') || '(native)';
    };
    const lines = (xs: Array<{ key: string; share: number }>, n: number) => xs.slice(0, n).map((x) => `${(x.share * 100).toFixed(1).padStart(5)}%  ${x.key}`).join('\n');
    for (const file of biggest) {
      const prof = JSON.parse(readFileSync(file, 'utf8'));
      const thread = prof.nodes.some((n: ProfileNode) => n.callFrame.url.endsWith('/dist/server-worker.mjs')) ? 'embedded server worker' : 'daemon main thread';
      const t = selfTime(prof, moduleOf);
      process.stdout.write(`== ${thread} ==\n-- self time by module --\n${lines(t.byModule, 20)}\n-- self time by function --\n${lines(t.byFunction, Number(process.env.PROFILE_TOP ?? 20))}\n`);
    }
  } finally {
    await daemon.dispose();
  }
}

/** 2,000 notes in the agent's Memory folder before its first runtime launch makes it a clone, one in 400 holding 'zzrareword'; waits until indexed. */
async function seedMemory(daemon: BenchDaemon, agentId: string): Promise<void> {
  const dir = join(daemon.d.home, 'memory', agentId);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const r = rng(42);
  const vocab = vocabulary(r);
  for (let i = 0; i < 2000; i++) writeFileSync(join(dir, `n${i}.md`), noteLines(r, vocab, i, 2000, [`# Note ${i}`, i % 400 === 0 ? 'zzrareword' : '']).join('\n'));
  const rt = await daemon.launchWithTokens(agentId);
  const path = `/api/internal/mcp/servers/${daemon.serverId}/agents/${agentId}`;
  for (let i = 0; i < 600; i++) {
    const res = await http(daemon.port, 'POST', path, { headers: { authorization: `Bearer ${rt.mcpToken}`, 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify(WORKLOADS.memory_search.body) });
    if (res.body.includes('"hits":[{')) break;
    await new Promise((res) => setTimeout(res, 100));
  }
  await daemon.stopRuntime(rt.runId);
}

if (process.argv[1]?.endsWith('profile.ts')) await main();
