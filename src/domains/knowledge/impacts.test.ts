// Tests the knowledge index's exact top-k over impact-ordered postings (SQLite): fuzzed corpora with source ACLs and ties
// against FTS5's exhaustive bm25 ranking, and on a real server a corpus with planted best sections (one in a source the turn
// may not read), kept exact through replaced, removed and added documents while the average section length grows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { openSqliteStore } from '../../server/store/sqlite.js';
import type { Sql, Store } from '../../server/store/types.js';
import { startTestServer, type TestServer } from '../test-server.js';
import { FREQUENT_DF, impactTopK } from './impacts.js';
import { ftsMatch } from './query.js';
import { SCHEMA } from '../registry.js';

let dir: string;
let store: Store;
let n = 0;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'kb-impacts-'));
  store = openSqliteStore(join(dir, 's.db'), { migrations: SCHEMA.sqlite });
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const SCOPES = ['workspace', 'channel:a', 'channel:b'];
const WORDS = ['alpha', 'beta', 'gamma', 'delta'];
const visible = (n: number) => `SELECT source_id FROM kb_source_scopes WHERE scope IN (${Array.from({ length: n }, () => '?').join(', ')})`;

/** Every visible match scored by FTS5, in (score, rowid) order: "rid:score" strings. */
async function exhaustive(sql: Sql, terms: string[], scopes: string[], limit: number): Promise<string[]> {
  const rows = await sql.all<{ rid: number; score: number }>(
    `SELECT f.rowid AS rid, bm25(kb_fts) AS score FROM kb_fts f JOIN kb_sections s ON s.rid = f.rowid JOIN kb_documents d ON d.id = s.document_id WHERE kb_fts MATCH ? AND d.source_id IN (${visible(scopes.length)})`,
    [ftsMatch(terms), ...scopes],
  );
  rows.sort((a, b) => a.score - b.score || a.rid - b.rid);
  return rows.slice(0, limit).map((r) => `${r.rid}:${-r.score}`);
}

test('fuzz: the top-k equals the exhaustive ranking of the visible rows (ACLs, ties, rare and frequent terms mixed)', async () => {
  const section = fc.array(fc.constantFrom(...WORDS, 'filler', 'text', 'more'), { minLength: 1, maxLength: 10 }).map((w) => w.join(' '));
  const source = fc.record({ scopes: fc.subarray(SCOPES), sections: fc.array(section, { minLength: 1, maxLength: 40 }) });
  await fc.assert(
    fc.asyncProperty(fc.array(source, { minLength: 1, maxLength: 4 }), fc.subarray(WORDS, { minLength: 1, maxLength: 3 }), fc.subarray(SCOPES, { minLength: 1 }), fc.integer({ min: 1, max: 12 }), fc.constantFrom(0, 3, 10), async (sources, terms, scopes, limit, frequentDf) => {
        await store.tx(async (sql) => {
          for (const t of ['kb_impacts', 'kb_impact_terms', 'kb_sections', 'kb_documents', 'kb_source_scopes', 'kb_sources']) await sql.run(`DELETE FROM ${t}`);
          for (const [i, s] of sources.entries()) {
            const src = `kbs_${i}`;
            const doc = `kbd_${++n}`;
            await sql.run("INSERT INTO kb_sources (id, name, kind, created_at) VALUES (?, ?, 'upload', 1)", [src, src]);
            for (const scope of new Set(s.scopes)) await sql.run('INSERT INTO kb_source_scopes (source_id, scope) VALUES (?, ?)', [src, scope]);
            await sql.run('INSERT INTO kb_documents (id, source_id, path, title, hash, mtime, section_count) VALUES (?, ?, ?, ?, ?, 1, ?)', [doc, src, `d${i}.md`, `doc ${i}`, 'h', s.sections.length]);
            for (const [p, body] of s.sections.entries()) await sql.run('INSERT INTO kb_sections (document_id, position, heading, body) VALUES (?, ?, ?, ?)', [doc, p, `h${i}`, body]);
          }
        });
        await store.tx(async (sql) => {
          const got = await impactTopK(sql, terms, scopes, limit, frequentDf);
          const want = await exhaustive(sql, terms, scopes, limit);
          if (got === null) return assert.ok(frequentDf > 0 || want.length === 0, 'null only when no term is frequent');
          assert.deepEqual(got.map((g) => `${g.rid}:${g.score}`), want);
        });
      },
    ),
    { numRuns: 80 },
  );
});

describeServer();

function describeServer(): void {
  let t: TestServer;
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  let seed = 11;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const FILL = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'elit', 'sed', 'tempor'];
  const words = (k: number, p: number) => Array.from({ length: k }, () => (rand() < p ? 'apple' : rand() < p ? 'pear' : FILL[Math.floor(rand() * FILL.length)])).join(' ');
  const doc = (sections: string[]) => sections.map((s, i) => `## part ${i}\n${s}`).join('\n');

  test('a real server: the planted best visible sections first, never the hidden source, exact through edits', async () => {
    // SQLite always (impact-ordered postings are SQLite's; PostgreSQL ranks with ts_rank, covered by kb-parity).
    delete process.env.AGENTTEAM_TEST_DB;
    t = await startTestServer();
    try {
      const a = await t.owner.members.createAgent({ name: 'kbk' });
      await t.owner.channels.addMember({ channelId: 'general', memberId: a.agent.id });
      const agent = t.client.as(a.credential);
      const msg = await t.owner.messages.send({ target: 'channel:general', content: 'question' });
      const src = await t.owner.knowledge.createSource({ name: 'seen', kind: 'upload', scopes: ['channel:general'] });
      const hidden = await t.owner.knowledge.createSource({ name: 'hidden', kind: 'upload', scopes: ['channel:elsewhere'] });
      const put = (s: string, path: string, content: string) => t.owner.knowledge.putDocument({ sourceId: s, path, hash: sha(content), mtime: 1, content });
      for (let d = 0; d < 6; d++) await put(src.id, `d${d}.md`, doc(Array.from({ length: 200 }, () => words(20 + Math.floor(rand() * 60), 0.05))));
      await put(hidden.id, 'h.md', doc(['apple pear apple pear apple pear apple pear apple pear']));
      await put(src.id, 'best.md', doc(['apple pear apple pear apple pear apple', 'filler text', 'pear apple pear apple pear lorem']));
      const bind = { serverId: t.server.serverId, target: 'channel:general', targetType: 'channel' as const, messageId: msg.id };
      const scopes = ['workspace', 'channel:general'];
      const search = async (query: string, limit = 5) => (await agent.knowledge.search({ ...bind, query, limit })).hits.map((h) => `${h.documentId}:${h.section}`);
      const rows = await t.querySql<{ n: number }>(`SELECT count(*) AS n FROM kb_fts WHERE kb_fts MATCH '"apple"'`);
      assert.ok(Number(rows[0]!.n) > FREQUENT_DF, 'apple is frequent');
      const want = async (q: string, limit = 5) => {
        const ex = await t.querySql<{ document_id: string; position: number }>(
          `SELECT s.document_id AS document_id, s.position AS position FROM kb_fts f JOIN kb_sections s ON s.rid = f.rowid JOIN kb_documents d ON d.id = s.document_id WHERE kb_fts MATCH ? AND d.source_id IN (${visible(2)}) ORDER BY bm25(kb_fts), f.rowid LIMIT ?`,
          [ftsMatch(q.split(' ')), ...scopes, limit],
        );
        return ex.map((r) => `${r.document_id}:${r.position}`);
      };
      const best = (await t.querySql<{ id: string }>(`SELECT id FROM kb_documents WHERE path = 'best.md'`))[0]!.id;
      const got = await search('apple pear');
      assert.deepEqual(got.slice(0, 2), [`${best}:0`, `${best}:2`], JSON.stringify(got));
      assert.deepEqual(got, await want('apple pear'));
      const postings = await t.querySql<{ n: number }>(`SELECT count(*) AS n FROM kb_impacts`);
      assert.ok(Number(postings[0]!.n) > FREQUENT_DF, 'the frequent words got impact-ordered postings');
      for (const limit of [1, 12]) assert.deepEqual(await search('pear apple', limit), await want('pear apple', limit));
      // Edits: the best document replaced (its postings go), one removed, long sections added (the average length grows).
      await put(src.id, 'best.md', doc(['nothing here']));
      assert.ok(!(await search('apple pear')).some((h) => h.startsWith(`${best}:`)));
      await t.owner.knowledge.removeDocument({ sourceId: src.id, path: 'd2.md' });
      for (let d = 0; d < 3; d++) await put(src.id, `long${d}.md`, doc(Array.from({ length: 10 }, () => words(700, 0.04))));
      for (const q of ['apple pear', 'pear', 'apple lorem']) assert.deepEqual(await search(q, 8), await want(q, 8), q);
      const df = await t.querySql<{ term: string; df: number }>(`SELECT term, df FROM kb_impact_terms ORDER BY term`);
      for (const r of df) assert.equal(Number(r.df), Number((await t.querySql<{ n: number }>(`SELECT count(*) AS n FROM kb_fts WHERE kb_fts MATCH ?`, [`"${r.term}"`]))[0]!.n), r.term);
    } finally {
      await t.stop();
    }
  });
}
