// Owns the kb_search benchmark: p50/p99 of turn-bound search over 10,000 sections (~20 MB, the memory benchmark's text) through the
// daemon's tool handler, the daemon→server hop and the server, against rg over the same text as files, in the same run; the
// index build time; the delay from a document change to its being searchable.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startTestServer } from '../src/domains/test-server.js';
import { createAgentteamHandler } from '../src/tools/agentteam/handler.js';
import { testToolDeps, tokenInfo } from '../src/tools/agentteam/testkit.js';
import { noteLines, rng, vocabulary } from './corpus.js';
import { fmt, goal, table, type BenchOptions, type BenchReport } from './report.js';

export const SECTIONS = 10_000;
const DOCS = 100;
const SECTION_BYTES = 2000;

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/** Times `f` over `n` calls after `warm` untimed ones (ms per call). */
async function timed(n: number, warm: number, f: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < warm + n; i++) {
    const s = performance.now();
    await f(i);
    if (i >= warm) out.push(performance.now() - s);
  }
  return out;
}

/** The benchmark's corpus on a real server: 10,000 sections readable from #general, a hidden source matching the same words, a Human turn. */
export async function kbFixture(dir: string) {
  const t = await startTestServer();
  const a = await t.owner.members.createAgent({ name: 'kbbench' });
  await t.owner.channels.addMember({ channelId: 'general', memberId: a.agent.id });
  const agent = t.client.as(a.credential);
  const msg = await t.owner.messages.send({ target: 'channel:general', content: 'question' });
  const src = await t.owner.knowledge.createSource({ name: 'bench', kind: 'upload', scopes: ['channel:general'] });
  // A second source no turn here may read: its sections match the same words and must never be ranked in.
  const hidden = await t.owner.knowledge.createSource({ name: 'hidden', kind: 'upload', scopes: ['channel:elsewhere'] });
  const r = rng(42);
  const vocab = vocabulary(r);
  const per = SECTIONS / DOCS;
  let bytes = 0;
  const t0 = performance.now();
  for (let d = 0; d < DOCS; d++) {
    const content = Array.from({ length: per }, (_, s) => noteLines(r, vocab, d * per + s, SECTION_BYTES, [`## Part ${d}-${s}`, `unique${d}x${s}`], false).join('\n')).join('\n');
    bytes += Buffer.byteLength(content);
    const put = await t.owner.knowledge.putDocument({ sourceId: src.id, path: `doc${d}.md`, hash: sha(content), mtime: 1, content });
    if (put.sections !== per) throw new Error(`doc${d}.md split into ${put.sections} sections, not ${per}`);
    writeFileSync(join(dir, `doc${d}.md`), content);
  }
  // As `kb sync` ends: the source is marked synced (on SQLite this merges the index the uploads left in segments).
  await t.owner.knowledge.markSynced({ sourceId: src.id });
  const buildMs = performance.now() - t0;
  const common = `${vocab[0]} ${vocab[1]}`;
  const hiddenText = Array.from({ length: 200 }, (_, i) => `## Hidden ${i}\n${common} ${common} unique0x${i % per}`).join('\n');
  await t.owner.knowledge.putDocument({ sourceId: hidden.id, path: 'hidden.md', title: 'hidden', hash: sha(hiddenText), mtime: 1, content: hiddenText });
  await t.owner.knowledge.markSynced({ sourceId: hidden.id });
  const bind = { serverId: t.server.serverId, target: 'channel:general', targetType: 'channel' as const, messageId: msg.id };
  const h = createAgentteamHandler(testToolDeps());
  const ctx = { info: tokenInfo(t.server.serverId, a.agent.id, dir), signal: new AbortController().signal, api: agent, turn: { turnId: 'trn_bench', ...bind, authorKind: 'human' as const } };
  const rare = (i: number) => `unique${(i * 37) % DOCS}x${(i * 11) % per}`;
  const tool = async (query: string) => {
    const res = await h.callTool(ctx, a.agent.id, 'kb_search', { query, limit: 5 });
    const hits = (res.structuredContent as { hits?: Array<{ title: string }> }).hits;
    if (res.isError || !hits?.length) throw new Error(`kb_search failed: ${res.content[0]?.text.slice(0, 200)}`);
    if (hits.some((x) => x.title === 'hidden')) throw new Error('kb_search ranked a section of a source the turn may not read');
    return hits.length;
  };
  return { t, agent, credential: a.credential, src, vocab, per, bytes, buildMs, common, bind, rare, tool };
}

export async function benchKb(opts: BenchOptions): Promise<BenchReport> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-kb-'));
  const { t, agent, src, vocab, per, bytes, buildMs, common, bind, rare, tool } = await kbFixture(dir);
  try {
    const n = opts.quick ? 300 : 2000;
    const cn = opts.quick ? 60 : 300;
    // Contenders take turns (rounds), so a burst of machine noise lands on all of them.
    const rows = { toolRare: [] as number[], toolCommon: [] as number[], hopRare: [] as number[], me: [] as number[] };
    for (let round = 0; round < 5; round++) {
      rows.toolRare.push(...(await timed(n / 5, 20, (i) => tool(rare(i + round * n)))));
      rows.toolCommon.push(...(await timed(cn / 5, 5, () => tool(common))));
      rows.hopRare.push(...(await timed(n / 5, 20, (i) => agent.knowledge.search({ ...bind, query: rare(i + round * n), limit: 5 }))));
      rows.me.push(...(await timed(n / 5, 20, () => agent.members.me())));
    }
    const matches = Number((await t.querySql<{ n: number }>(`SELECT COUNT(*) AS n FROM kb_fts WHERE kb_fts MATCH ?`, [`"${vocab[0]}" OR "${vocab[1]}"`]))[0]!.n);
    // The baseline in the same run: rg over the same text as files (a fresh process per query, as an agent would run it).
    const haveRg = spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;
    const rg: number[] = [];
    for (let i = 0; haveRg && i < (opts.quick ? 12 : 42); i++) {
      const s = performance.now();
      const out = spawnSync('rg', ['-n', '-i', '-F', '--max-columns', '200', '--', rare(i), dir], { maxBuffer: 64 * 1024 * 1024 });
      if (out.status !== 0) throw new Error('rg failed or found nothing');
      if (i >= 2) rg.push(performance.now() - s);
    }
    // Change → searchable: replace a document with a fresh word, then search for it through the tool (the upsert indexes in its transaction).
    // The rg loop above blocks this process (spawnSync) for seconds, so the pooled socket's idle timeouts fire only after
    // the next request went out on it; a GET (retried on a fresh socket when stale) renews the pool before the edits' POSTs.
    await t.owner.members.me();
    const delays: number[] = [];
    for (let i = 0; i < (opts.quick ? 5 : 20); i++) {
      const fresh = `freshword${i}x${Date.now() % 1e6}`;
      const content = `# Changed ${i}\n${fresh} ${common}`;
      const s = performance.now();
      await t.owner.knowledge.putDocument({ sourceId: src.id, path: `changed${i % 3}.md`, hash: sha(content), mtime: 2 + i, content });
      await tool(fresh);
      delays.push(performance.now() - s);
    }
    const rareP50 = pct(rows.toolRare, 50);
    const speedup = haveRg ? pct(rg, 50) / rareP50 : NaN;
    const line = (name: string, xs: number[]) => [name, fmt(pct(xs, 50), 3), fmt(pct(xs, 99), 3), String(xs.length)];
    const server = pct(rows.hopRare, 50) - pct(rows.me, 50);
    return {
      name: 'kb',
      table: [
        `${SECTIONS} sections (${(bytes / 1e6).toFixed(1)} MB) in ${DOCS} documents, index build ${fmt(buildMs / 1000)} s (HTTP, revalidation included); common query: ${matches} sections match`,
        table(['kb_search query', 'p50 ms', 'p99 ms', 'n'], [
          line('one rare word, tool handler (full daemon path)', rows.toolRare),
          line('two common words, tool handler', rows.toolCommon),
          line('one rare word, ServerClient (hop + server)', rows.hopRare),
          line('GET /v1/me, ServerClient (the hop + auth alone)', rows.me),
          haveRg ? line('rg -n -i -F, the same rare words, same text', rg) : ['rg (not installed)', '-', '-', '0'],
        ]),
        `server-side part (rare, p50 hop+server − p50 hop alone): ${fmt(server, 3)} ms`,
        `change → searchable (upsert + search): p50 ${fmt(pct(delays, 50), 1)} ms, max ${fmt(Math.max(...delays), 1)} ms (${delays.length} edits)`,
        haveRg ? `kb_search is ${fmt(speedup, 0)}× faster than rg at p50 (rare word)` : 'rg is not installed: the speed-up is not measured',
      ].join('\n'),
      goals: [goal('kb_search p50 ms (rare word)', rareP50, '<=', 1), goal('change searchable ms (max)', Math.max(...delays), '<=', 1000), ...(haveRg ? [goal('speed-up vs rg (p50, rare word)', speedup, '>=', 100)] : [])],
      json: { sections: SECTIONS, bytes, buildMs, commonMatches: matches, toolRare: { p50: rareP50, p99: pct(rows.toolRare, 99) }, toolCommon: { p50: pct(rows.toolCommon, 50), p99: pct(rows.toolCommon, 99) }, hopRare: { p50: pct(rows.hopRare, 50), p99: pct(rows.hopRare, 99) }, me: { p50: pct(rows.me, 50) }, serverMs: server, rg: haveRg ? { p50: pct(rg, 50), p99: pct(rg, 99) } : null, changeMsMax: Math.max(...delays), speedup },
    };
  } finally {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
