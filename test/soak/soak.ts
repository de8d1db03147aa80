// Owns `npm run soak`: drives the soak world for a bounded time (loop count and seconds), kills the daemon -9 twice,
// waits for the turns to settle, prints every verdict and the per-agent turn-start latency; exit 1 on any failed verdict.
// `--short` is the CI form (about 2 minutes); `--bench` prints the benchmark table (bench/soak.ts) instead.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliJson } from '../harness.js';
import { JournalWatch, journal, readLog, verdicts } from './check.js';
import { World, prng, type SoakOptions } from './scenario.js';

export function options(argv: string[]): SoakOptions & { keep: boolean } {
  const short = argv.includes('--short');
  const num = (flag: string, dflt: number) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? Number(argv[i + 1]) : dflt;
  };
  return {
    agents: num('--agents', 12), loops: num('--loops', short ? 12 : 40), seconds: num('--seconds', short ? 60 : 240), kills: num('--kills', 2),
    backlog: num('--backlog', short ? 120 : 300), turnTimeout: num('--turn-timeout', 5), loopBound: num('--loop-bound', 4), maxTurns: num('--max-turns', 8), seed: num('--seed', 26),
    maxQueued: argv.includes('--max-queued') ? num('--max-queued', 0) : undefined,
    dir: mkdtempSync(join(tmpdir(), 'agentteam-soak-')), keep: argv.includes('--keep'),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The scripted Human: per loop a channel mention, a thread post, a DM or group DM, a task comment; kill -9 at 1/3 and 2/3. */
export async function drive(w: World): Promise<{ posted: number; loops: number }> {
  const rnd = prng(w.o.seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const byId = new Map(w.agents.map((a) => [a.id, a]));
  const channels = [...w.targets.values()].filter((t) => t.kind === 'channel' && t.target !== 'channel:backlog');
  const dms = [...w.targets.values()].filter((t) => t.kind === 'dm');
  const tasks = [...w.targets.values()].filter((t) => t.kind === 'task');
  const threads = w.threads;
  const killAt = new Set(Array.from({ length: w.o.kills }, (_, k) => Math.floor(((k + 1) * w.o.loops) / (w.o.kills + 1))));
  const end = Date.now() + w.o.seconds * 1000;
  let posted = 0, loop = 0;
  for (; loop < w.o.loops && Date.now() < end; loop++) {
    const ch = pick(channels);
    const members = [...ch.members].map((id) => byId.get(id)).filter((a) => a && a !== w.backlogAgent && a !== w.victim);
    const who = [pick(members)!, pick(members)!].filter((a, i, xs) => xs.indexOf(a) === i);
    const id = await w.post(ch.target, `${who.map((a) => `@${a.name}`).join(' ')} loop ${loop}`);
    posted++;
    // Threads: a root per channel for the first loops (the per-member thread bound is 30 a minute), then replies.
    if (loop < 3) threads.push(`thread:${ch.target.slice(8)}/${id}`);
    else {
      const th = pick(threads);
      await w.api.messages.send({ target: th, content: `loop ${loop}: follow-up` });
      posted++;
    }
    if (dms.length) (await w.post(pick(dms).target, `loop ${loop}: hello`), posted++);
    if (tasks.length && loop % 2 === 0) (await w.post(pick(tasks).target, `loop ${loop}: progress?`), posted++);
    if (killAt.has(loop)) {
      // Let turns start, so the kill cuts some off mid-run.
      await sleep(400);
      await w.crashDaemon();
    }
    await sleep(250 + Math.floor(rnd() * 250));
  }
  return { posted, loops: loop };
}

/** Waits until the journal has nothing queued or running and no agent log grew for 2 s (bounded by `ms`). */
export async function settle(w: World, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  let last = '', since = Date.now();
  while (Date.now() < end) {
    const rows = journal(w.d.home);
    const busy = rows.filter((r) => r.status === 'queued' || r.status === 'running').length;
    const sig = `${busy}:${w.agents.map((a) => readLog(a.log).length).join(',')}:${rows.length}`;
    if (sig !== last) (last = sig), (since = Date.now());
    if (busy === 0 && Date.now() - since > 2000) return true;
    await sleep(250);
  }
  return false;
}

/** What the daemon still holds once every turn has settled: runtimes and credential files (both must be 0). */
export async function leftovers(w: World): Promise<{ runtimes: number; credentials: number }> {
  const r = cliJson(await w.d.run(['runtime', 'ls', '--json']));
  const runs = Array.isArray(r) ? r : (r.runtimes ?? []);
  let credentials = 0;
  try {
    credentials = readdirSync(join(w.d.home, 'run', 'credentials')).length;
  } catch {
    credentials = 0;
  }
  // runtime ls keeps recently exited runtimes (status exited); a runtime left is one still running.
  return { runtimes: runs.filter((x: { status: string }) => x.status !== 'exited').length, credentials };
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes('--bench')) return (await import('../../bench/soak.js')).main(argv);
  const o = options(argv);
  const w = new World(o);
  const t0 = Date.now();
  const watch = new JournalWatch(w.d.home);
  const timer = setInterval(() => watch.poll(), 300);
  try {
    await w.start();
    await w.cast();
    await w.furnish();
    const answerer = w.agents.find((a) => a.behaviour === 'answer' && a !== w.victim)!;
    await w.workflow(answerer, 'channel:general');
    await w.backlog(o.backlog);
    const { posted, loops } = await drive(w);
    const settled = await settle(w, 240_000);
    const left = await leftovers(w);
    const { verdicts: vs, latency } = await verdicts(w, watch);
    vs.push({ name: 'turns settled (nothing queued or running)', ok: settled, detail: '' });
    vs.push({ name: 'loop count and time bounds held', ok: loops <= o.loops, detail: `${loops} loops of at most ${o.loops}, ${posted} Human posts + ${o.backlog + 1} backlog posts` });
    vs.push({ name: 'runtimes left: 0', ok: left.runtimes === 0, detail: String(left.runtimes) });
    vs.push({ name: 'credentials left in home/run/credentials: 0', ok: left.credentials === 0, detail: String(left.credentials) });
    console.log(`soak: ${o.agents} agents, seed ${o.seed}, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    for (const x of vs) console.log(`${x.ok ? 'ok  ' : 'FAIL'} ${x.name}${x.detail ? ` (${x.detail})` : ''}`);
    console.log('turn-start latency (message createdAt -> runtime start), ms:');
    console.log(
      latency
        .map((l) => `  ${l.agent.padEnd(8)} turns ${String(l.n).padStart(5)}  p50 ${String(l.p50).padStart(6)}  p99 ${String(l.p99).padStart(6)}  while the backlog waited: ${l.nBacklog} turns, p99 ${l.p99Backlog}`)
        .join('\n'),
    );
    return vs.every((x) => x.ok) ? 0 : 1;
  } finally {
    clearInterval(timer);
    w.close();
    await w.d.stop();
    if (!o.keep) {
      rmSync(w.d.home, { recursive: true, force: true });
      rmSync(o.dir, { recursive: true, force: true });
    } else console.log(`kept: home ${w.d.home}, logs ${o.dir}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main();
