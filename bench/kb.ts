// Owns the kb_search benchmark: p50/p99 of turn-bound search over 10,000 sections on the real server (SQLite FTS5, loopback HTTP), and the index build time.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startTestServer } from '../src/server/test-helpers.js';
import { fmt, table, type BenchOptions, type BenchReport } from './report.js';

export const SECTIONS = 10_000;
const DOCS = 100;
const WORDS = ['deploy', 'rollback', 'canary', 'release', 'pipeline', 'incident', 'oncall', 'schema', 'backup', 'quota', 'latency', 'token', 'budget', 'review', 'ticket', 'runbook'];

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

export async function benchKb(opts: BenchOptions): Promise<BenchReport> {
  const t = await startTestServer();
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
    const rows = [
      ['common words (every section matches)', fmt(pct(common, 50)), fmt(pct(common, 99))],
      ['one rare word', fmt(pct(rare, 50)), fmt(pct(rare, 99))],
    ];
    return {
      name: 'kb',
      table: `${SECTIONS} sections in ${DOCS} documents, index build ${fmt(buildMs / 1000)} s (HTTP, revalidation included)\n${table(['kb_search query', 'p50 ms', 'p99 ms'], rows)}`,
      goals: [],
      json: { sections: SECTIONS, buildMs, common: { p50: pct(common, 50), p99: pct(common, 99) }, rare: { p50: pct(rare, 50), p99: pct(rare, 99) } },
    };
  } finally {
    await t.stop();
  }
}
