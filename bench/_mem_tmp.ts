import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MemorySearch } from '../src/memorysearch/service.js';
import { toFtsQuery } from '../src/memorysearch/query.js';
import type { ServerApi } from '../src/server-client/api.js';
import { systemClock } from '../src/shared/clock.js';
import { createAgentteamHandler } from '../src/tools/agentteam/handler.js';
import { tokenInfo } from '../src/tools/agentteam/testkit.js';
import { serializeWithinBudget } from '../src/wire/mcp/resultbudget/budget.js';
import { noteLines, rng, vocabulary, zipfWord } from './corpus.js';
const home = mkdtempSync(join(tmpdir(), 'memt-'));
const memory = new MemorySearch({ memoryRoot: join(home, 'memory'), indexRoot: join(home, 'memory-index'), clock: systemClock });
const AGENT = 'agt_bench';
const dir = memory.dir(AGENT);
mkdirSync(dir, { recursive: true, mode: 0o700 });
const r = rng(42); const vocab = vocabulary(r);
for (let i = 0; i < 10000; i++) { const sub = join(dir, `topic${i % 50}`); if (i < 50) mkdirSync(sub, { recursive: true }); writeFileSync(join(sub, `n${i}.md`), noteLines(r, vocab, i, 2000, [`# Note ${i}: ${zipfWord(r, vocab)} ${zipfWord(r, vocab)}`, '']).join('\n') + '\n'); }
memory.ensure(AGENT); await memory.index(AGENT).scan();
for (let k = 0; k < 200 && !(memory.index(AGENT) as any).store; k++) await new Promise((res) => setTimeout(res, 50));
const h = createAgentteamHandler({ memory });
const ctx = { info: tokenInfo('srv', AGENT, home), signal: new AbortController().signal, api: {} as ServerApi };
const words = Array.from({ length: 20 }, (_, i) => vocab[4000 + i * 197]!);
const idx = memory.index(AGENT);
const store = (idx as any).store;
const p50 = (f: (i: number) => unknown) => { for (let i = 0; i < 200; i++) f(i); const xs: number[] = []; const c0 = process.cpuUsage(); for (let i = 0; i < 3000; i++) { const s = performance.now(); f(i); xs.push(performance.now() - s); } const c = process.cpuUsage(c0); xs.sort((a, b) => a - b); return `${(xs[1500]! * 1000).toFixed(1)} µs (cpu ${((c.user + c.system) / 3000).toFixed(1)})`; };
const p50a = async (f: (i: number) => Promise<unknown>) => { for (let i = 0; i < 200; i++) await f(i); const xs: number[] = []; for (let i = 0; i < 3000; i++) { const s = performance.now(); await f(i); xs.push(performance.now() - s); } xs.sort((a, b) => a - b); return `${(xs[1500]! * 1000).toFixed(1)} µs`; };
for (let round = 0; round < 2; round++) {
  console.log('store.search', p50((i) => store.search(toFtsQuery(words[i % 20]!)!, 5)));
  console.log('index.search', p50((i) => idx.search(words[i % 20]!, 5)));
  console.log('callTool', await p50a((i) => h.callTool(ctx, AGENT, 'memory_search', { query: words[i % 20]!, limit: 5 })));
  console.log('callTool+serialize', await p50a(async (i) => serializeWithinBudget(await h.callTool(ctx, AGENT, 'memory_search', { query: words[i % 20]!, limit: 5 }))));
}

import Database from 'better-sqlite3';
const db = new Database(join(home, 'memory-index', `${AGENT}.db`), { readonly: true });
const T = (label: string, sql: string, lim?: boolean | 2) => { const st = db.prepare(sql); console.log(label.padEnd(30), p50((i) => (lim === 2 ? st.all(`"${words[i % 20]}"`, 5, `"${words[i % 20]}"`) : lim ? st.all(`"${words[i % 20]}"`, 5) : st.all(`"${words[i % 20]}"`)))); };
const fq = words.map((w) => toFtsQuery(w)!);
for (let round = 0; round < 2; round++) {
  console.log('toFtsQuery', p50((i) => toFtsQuery(words[i % 20]!)));
  console.log('topK', p50((i) => store.impacts.topK(fq[i % 20]!.words, true, 5)));
  console.log('store.search', p50((i) => store.search(fq[i % 20]!, 5)));
  console.log('q.search', p50((i) => store.q.search.all(fq[i % 20]!.all, 5)));
T('new', `SELECT f.path AS path, s.start_line AS startLine, s.end_line AS endLine, -t.s AS score, snippet(sections, 0, '', '', '…', 12) AS snippet FROM (SELECT rowid AS rid, bm25(sections) AS s FROM sections WHERE sections MATCH ? ORDER BY s LIMIT ?) t JOIN sections s ON s.rowid = t.rid AND sections MATCH ? JOIN files f ON f.id = t.rid / 1024 ORDER BY t.s`, 2);
T('old lim param', `SELECT f.path AS path, s.start_line AS startLine, s.end_line AS endLine, s.score AS score, s.snip AS snippet FROM (SELECT rowid, start_line, end_line, -bm25(sections) AS score, snippet(sections, 0, '', '', '…', 12) AS snip FROM sections WHERE sections MATCH ? ORDER BY rank LIMIT ?) s JOIN files f ON f.id = s.rowid / 1024 ORDER BY s.score DESC`, true);
T('full old', `SELECT f.path AS path, s.start_line AS startLine, s.end_line AS endLine, s.score AS score, s.snip AS snippet FROM (SELECT rowid, start_line, end_line, -bm25(sections) AS score, snippet(sections, 0, '', '', '…', 12) AS snip FROM sections WHERE sections MATCH ? ORDER BY rank LIMIT 5) s JOIN files f ON f.id = s.rowid / 1024 ORDER BY s.score DESC`);
}
