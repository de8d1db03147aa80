// Owns the search-path benchmark (`--only=search-path`): memory_search and kb_search timed from an MCP client inside a runtime the
// real daemon launched for a Human turn (keep-alive, one request in flight), beside the daemon's MCP ping, a bare node:http ping
// and rg over the same 10,000 files, in one run (bench/search-client.mjs does the timing).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cliJson } from '../test/harness.js';
import { startBaseline } from './baselines/common.js';
import { rng, writeNotes } from './corpus.js';
import { fmt, goal, table, type BenchOptions, type BenchReport } from './report.js';
import { BenchDaemon } from './setup.js';

const FILES = 10_000;
const FILE_BYTES = 2000;
const CLIENT = resolve(import.meta.dirname, 'search-client.mjs');
const LAST_WORD = 'zzlastfilemarker';

interface Row {
  p50: number;
  p99: number;
  n: number;
  cpuUsPerReq: number;
}

export async function benchSearchPath(o: BenchOptions): Promise<BenchReport> {
  const daemon = await BenchDaemon.launch();
  let bare: Awaited<ReturnType<typeof startBaseline>> | undefined;
  try {
    // The daemon stays detached, as `init` starts it (its own session). Run in the foreground as our child (mcpFixture), it
    // was SIGKILLed within a minute of the memory index's build in three runs on 2026-12-05, by no code of ours that we
    // found; the runtime that measures is in a session of its own either way (runtimes are started with setsid).
    const d = daemon.d;
    const t0 = performance.now();
    const kbDir = join(daemon.scratch, 'notes');
    const { bytes, vocab } = writeNotes(kbDir, { files: FILES, fileBytes: FILE_BYTES, lastLine: `- ${LAST_WORD}`, mode: 0o700 });
    const cfgPath = join(daemon.scratch, 'search.json');
    const add = await d.run(['agent', 'add', '--name', 'searcher', '--runtime', 'command', '--workdir', daemon.scratch, '--', process.execPath, CLIENT, cfgPath]);
    if (add.code !== 0) throw new Error(`agent add failed: ${add.stderr}`);
    const agentId = cliJson(add).id as string;
    // The knowledge source first, then the Memory clone: the files are in place before the first runtime launch creates
    // the clone (git init in the folder) and its index, which then builds by scanning, not from 10,000 watcher events.
    const src = await d.run(['kb', 'add-source', kbDir, '--scope', 'channel:general']);
    if (src.code !== 0) throw new Error(`kb add-source failed: ${src.stderr}`);
    const sync = await d.run(['kb', 'sync'], { timeoutMs: 900_000 });
    if (sync.code !== 0) throw new Error(`kb sync failed: ${sync.stderr}`);
    const memDir = join(d.home, 'memory', agentId);
    mkdirSync(memDir, { recursive: true, mode: 0o700 });
    for (let i = 0; i < 50; i++) cpSync(join(kbDir, `topic${i}`), join(memDir, `topic${i}`), { recursive: true });
    const first = await d.run(['runtime', 'start', '--agent', 'searcher', '--workdir', daemon.scratch, '--', 'true']);
    if (first.code !== 0) throw new Error(`runtime start failed: ${first.stderr}`);
    const setupS = (performance.now() - t0) / 1000;

    // SEARCH_PATH_CPU_PROF=DIR: the daemon is restarted under --cpu-prof for the timed turn (profiles land in DIR at exit).
    const profDir = process.env.SEARCH_PATH_CPU_PROF;
    const profiled = profDir ? await daemon.restartWith(['--cpu-prof', `--cpu-prof-dir=${profDir}`]) : undefined;
    bare = await startBaseline('trivial', { serverUrl: '', credentials: {}, tokens: [] });
    const r = rng(7);
    const out = join(daemon.scratch, 'search-result.json');
    const cfg = {
      barePort: bare.port,
      barePid: bare.child.pid,
      daemonPid: daemon.pid,
      rgDir: kbDir,
      lastWord: LAST_WORD,
      // Rare: the long tail of the vocabulary (a few hundred occurrences in 23 MB); common: its two most frequent words.
      rare: Array.from({ length: 20 }, () => vocab[Math.floor(4000 + r() * 4000)]!),
      common: `${vocab[0]} ${vocab[1]}`,
      rounds: o.quick ? 3 : 5,
      n: o.quick ? 100 : 300,
      nCommon: o.quick ? 10 : 30,
      nRg: o.quick ? 3 : 6,
      out,
    };
    writeFileSync(cfgPath, JSON.stringify(cfg), { mode: 0o600 });
    const turn = await d.run(['message', 'post', '--target', 'channel:general', '@searcher measure']);
    if (turn.code !== 0) throw new Error(`message post failed: ${turn.stderr}`);
    for (let i = 0; !existsSync(out); i++) {
      if (i > 12_000) throw new Error('the search client wrote no result within 20 min');
      if (i % 50 === 49) {
        const logs = cliJson(await d.run(['agent', 'logs', 'searcher', '--json']));
        const failed = (logs.turns as Array<{ status?: string; outcome?: string | null }>).find((t) => t.status === 'failed' || t.status === 'skipped' || (t.outcome && t.outcome !== 'ok'));
        if (failed) throw new Error(`the search turn ended ${failed.outcome}: ${JSON.stringify(failed).slice(0, 400)}`);
      }
      await new Promise((res) => setTimeout(res, 100));
    }
    const rows = (JSON.parse(readFileSync(out, 'utf8')) as { rows: Record<string, Row> }).rows;
    if (profiled) await new Promise((r) => (profiled.once('exit', r), profiled.kill('SIGTERM')));
    // The daemon's warnings during the run (a memory index problem would cost every search); the log holds no secret.
    const log = join(d.home, 'logs', 'daemon.log');
    const warnings = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => /"level":(4|5)0/.test(l)) : [];
    for (const w of warnings.slice(0, 5)) process.stderr.write(`daemon warning: ${w.slice(0, 300)}\n`);
    const none: Row = { p50: NaN, p99: NaN, n: 0, cpuUsPerReq: NaN };
    const R = (k: string) => rows[k] ?? none;
    const line = (label: string, k: string, peer?: string) => [label, fmt(R(k).p50, 3), fmt(R(k).p99, 3), fmt(R(k).cpuUsPerReq, 0), peer ?? '', String(R(k).n)];
    const ping = R('ping').p50;
    const vsRg = (k: string, rgKey: string) => (rows[rgKey] ? `${fmt(R(rgKey).p50 / R(k).p50, 0)}× faster than rg` : 'rg not installed');
    const tableText = [
      `${FILES} files, ${(bytes / 1e6).toFixed(1)} MB (memory clone and a kb source of the same files); setup ${fmt(setupS, 0)} s; one keep-alive connection per server, one request in flight; CPU charged to the daemon (ours) or the bare server or rg alone`,
      table(['from the runtime', 'p50 ms', 'p99 ms', 'CPU us/req', 'beside its peer', 'n'], [
        line('bare node:http ping (canned answer)', 'barePing'),
        line('MCP ping (daemon)', 'ping', `${fmt(ping - R('barePing').p50, 3)} ms over bare`),
        line('memory_search, rare word', 'memoryRare', `ping + ${fmt(R('memoryRare').p50 - ping, 3)} ms; ${vsRg('memoryRare', 'rgRare')}`),
        line('kb_search, rare word', 'kbRare', `ping + ${fmt(R('kbRare').p50 - ping, 3)} ms; ${vsRg('kbRare', 'rgRare')}`),
        line('memory_search, two common words', 'memoryCommon', vsRg('memoryCommon', 'rgCommon')),
        line('kb_search, two common words', 'kbCommon', vsRg('kbCommon', 'rgCommon')),
        line('rg -n -i -F, rare word (a process per query)', 'rgRare'),
        line('rg -n -i -F -e A -e B, two common words', 'rgCommon'),
      ]),
    ].join('\n');
    const goals = [
      goal('memory_search p50 minus MCP ping p50, ms (rare word)', R('memoryRare').p50 - ping, '<=', 0.3),
      goal('kb_search p50 minus MCP ping p50, ms (rare word)', R('kbRare').p50 - ping, '<=', 0.6),
      goal('memory_search p50 ms, two common words', R('memoryCommon').p50, '<=', 5),
      goal('kb_search p50 ms, two common words', R('kbCommon').p50, '<=', 5),
    ];
    return { name: 'search-path', table: tableText, goals, json: { files: FILES, bytes, setupS, rows } };
  } catch (e) {
    // The daemon's own log says why a step failed (it holds no secret); the temp home goes with the fixture.
    const logs = join(daemon.d.home, 'logs');
    for (const f of existsSync(logs) ? readdirSync(logs) : []) process.stderr.write(`-- ${f} (last lines)\n${readFileSync(join(logs, f), 'utf8').split('\n').slice(-15).join('\n')}\n`);
    throw e;
  } finally {
    await bare?.stop();
    await daemon.dispose();
    rmSync(join(daemon.scratch), { recursive: true, force: true });
  }
}
