// Owns the kb_search benchmark: p50/p99 of turn-bound search over 10,000 sections on the real server (SQLite FTS5, loopback HTTP)
// against rg over the same text as files, the index build time, and the delay from a document change to its being searchable.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startTestServer } from '../src/server/test-helpers.js';
import { fmt, goal, table, type BenchOptions, type BenchReport } from './report.js';

export const SECTIONS = 10_000;
const DOCS = 100;
const WORDS = ['deploy', 'rollback', 'canary', 'release', 'pipeline', 'incident', 'oncall', 'schema', 'backup', 'quota', 'latency', 'token', 'budget', 'review', 'ticket', 'runbook'];

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

export async function benchKb(opts: BenchOptions): Promise<BenchReport> {
  const t = await startTestServer();
  const dir = mkdtempSync(join(tmpdir(), 'bench-kb-'));
  try {
    const a = await t.owner.members.createAgent({ name: 'kbbench' });
    await t.owner.channels.addMember('general', a.agent.id);
    const agent = t.client.as(a.credential);
    const msg = await t.owner.messages.send({ target: 'channel:general', content: 'question' });
    const src = await t.owner.knowledge.createSource({ name: 'bench', kind: 'upload', scopes: ['channel:general'] });
    const per = SECTIONS / DOCS;
    const t0 = performance.now();
    for (let d = 0; d < DOCS; d++) {
      const content = Array.from({ length: per }, (_, s) => `## Part ${d}-${s}\n${Array.from({ length: 60 }, (_, w) => WORDS[(d * 7 + s * 3 + w * 5) % WORDS.length]).join(' ')} unique${d}x${s}`).join('\n');
      await t.owner.knowledge.putDocument(src.id, { path: `doc${d}.md`, hash: createHash('sha256').update(content).digest('hex'), mtime: 1, content });
      writeFileSync(join(dir, `doc${d}.md`), content);
    }
    const buildMs = performance.now() - t0;
    const bind = { serverId: t.server.serverId, target: 'channel:general', targetType: 'channel', messageId: msg.id };
    const n = opts.quick ? 200 : 500;
    const common: number[] = [];
    const rare: number[] = [];
    for (let i = 0; i < n; i++) {
      let s = performance.now();
      await agent.knowledge.search({ ...bind, query: `${WORDS[i % WORDS.length]} ${WORDS[(i + 5) % WORDS.length]}`, limit: 5 });
      common.push(performance.now() - s);
      s = performance.now();
      await agent.knowledge.search({ ...bind, query: `unique${i % DOCS}x${i % per}`, limit: 5 });
      rare.push(performance.now() - s);
    }
    // The baseline in the same run: rg over the same text as files (a fresh process per query, as an agent would run it).
    const haveRg = spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;
    const rg: number[] = [];
    for (let i = 0; haveRg && i < (opts.quick ? 12 : 42); i++) {
      const s = performance.now();
      const out = spawnSync('rg', ['-n', '-i', '-F', '--max-columns', '200', '--', `unique${i % DOCS}x${i % per}`, dir], { maxBuffer: 64 * 1024 * 1024 });
      if (out.status !== 0 && out.status !== 1) throw new Error('rg failed');
      if (i >= 2) rg.push(performance.now() - s);
    }
    // Change → searchable: replace a document with a fresh word, then search for it (the upsert indexes in its transaction).
    const delays: number[] = [];
    for (let i = 0; i < (opts.quick ? 5 : 20); i++) {
      const fresh = `freshword${i}x${Date.now() % 1e6}`;
      const content = `# Changed ${i}\n${fresh} ${WORDS.join(' ')}`;
      const s = performance.now();
      await t.owner.knowledge.putDocument(src.id, { path: `changed${i % 3}.md`, hash: createHash('sha256').update(content).digest('hex'), mtime: 2 + i, content });
      const found = (await agent.knowledge.search({ ...bind, query: fresh, limit: 1 })).hits.length;
      delays.push(performance.now() - s);
      if (found !== 1) throw new Error('a changed document was not searchable right after its upsert');
    }
    const rareP50 = pct(rare, 50);
    const speedup = haveRg ? pct(rg, 50) / rareP50 : NaN;
    const rows = [
      ['common words (every section matches)', fmt(pct(common, 50)), fmt(pct(common, 99))],
      ['one rare word', fmt(rareP50), fmt(pct(rare, 99))],
      [haveRg ? 'rg -n -i -F, the same rare word over the same text' : 'rg (not installed)', haveRg ? fmt(pct(rg, 50), 1) : '-', haveRg ? fmt(pct(rg, 99), 1) : '-'],
    ];
    return {
      name: 'kb',
      table: [
        `${SECTIONS} sections in ${DOCS} documents, index build ${fmt(buildMs / 1000)} s (HTTP, revalidation included)`,
        table(['kb_search query', 'p50 ms', 'p99 ms'], rows),
        `change → searchable (upsert + search): p50 ${fmt(pct(delays, 50), 1)} ms, max ${fmt(Math.max(...delays), 1)} ms (${delays.length} edits)`,
        haveRg ? `kb_search is ${fmt(speedup, 0)}× faster than rg at p50 (rare word)` : 'rg is not installed: the speed-up is not measured',
      ].join('\n'),
      goals: [goal('kb_search p50 ms (rare word)', rareP50, '<=', 1), goal('change searchable ms (max)', Math.max(...delays), '<=', 1000), ...(haveRg ? [goal('speed-up vs rg (p50, rare word)', speedup, '>=', 100)] : [])],
      json: { sections: SECTIONS, buildMs, common: { p50: pct(common, 50), p99: pct(common, 99) }, rare: { p50: rareP50, p99: pct(rare, 99) }, rg: haveRg ? { p50: pct(rg, 50), p99: pct(rg, 99) } : null, changeMsMax: Math.max(...delays), speedup },
    };
  } finally {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
