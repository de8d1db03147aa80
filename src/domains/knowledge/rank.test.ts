// Tests SQLite ranking against the exhaustive ranking (every match scored, joined, ACL-filtered and sorted): fuzzed corpora with
// source ACLs and score ties, invisible sections crowding the top, and the capped window's fallback.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { openSqliteStore } from '../../server/store/sqlite.js';
import type { Store } from '../../server/store/types.js';
import { ftsMatch } from './query.js';
import { rankSections, WINDOW_MAX } from './rank.js';
import { SCHEMA } from '../registry.js';

let dir: string;
let store: Store;
let n = 0;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'kb-rank-'));
  store = openSqliteStore(join(dir, 's.db'), { migrations: SCHEMA.sqlite });
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const SCOPES = ['workspace', 'channel:a', 'channel:b', 'dm:dm_x'];
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega'];

/** Replaces the corpus: each source with its scopes, one document per source, its sections in order. */
async function load(sources: Array<{ scopes: string[]; sections: string[] }>): Promise<void> {
  await store.tx(async (sql) => {
    await sql.run('DELETE FROM kb_sections');
    await sql.run('DELETE FROM kb_documents');
    await sql.run('DELETE FROM kb_source_scopes');
    await sql.run('DELETE FROM kb_sources');
    for (const [i, s] of sources.entries()) {
      const src = `kbs_${i}`;
      const doc = `kbd_${++n}`;
      await sql.run("INSERT INTO kb_sources (id, name, kind, created_at) VALUES (?, ?, 'upload', 1)", [src, src]);
      for (const scope of new Set(s.scopes)) await sql.run('INSERT INTO kb_source_scopes (source_id, scope) VALUES (?, ?)', [src, scope]);
      await sql.run('INSERT INTO kb_documents (id, source_id, path, title, hash, mtime, section_count) VALUES (?, ?, ?, ?, ?, 1, ?)', [doc, src, `d${i}.md`, `doc ${i}`, 'h', s.sections.length]);
      for (const [p, body] of s.sections.entries()) await sql.run('INSERT INTO kb_sections (document_id, position, heading, body) VALUES (?, ?, ?, ?)', [doc, p, `h${i}.${p}`, body]);
    }
  });
}

/** Every match scored and ACL-filtered, sorted by (score, rowid): what the ranking must equal, prefix by prefix. */
async function exhaustive(terms: string[], scopes: string[], limit: number): Promise<string[]> {
  const rows = await store.tx((sql) =>
    sql.all<{ rid: number; score: number; heading: string }>(
      `SELECT f.rowid AS rid, bm25(kb_fts) AS score, s.heading AS heading FROM kb_fts f JOIN kb_sections s ON s.rid = f.rowid JOIN kb_documents d ON d.id = s.document_id WHERE kb_fts MATCH ? AND d.source_id IN (SELECT source_id FROM kb_source_scopes WHERE scope IN (${scopes.map(() => '?').join(', ')}))`,
      [ftsMatch(terms), ...scopes],
    ),
  );
  rows.sort((a, b) => a.score - b.score || a.rid - b.rid);
  return rows.slice(0, limit).map((r) => r.heading);
}

/** FTS5's window ranking (no term counts as frequent), or with `impacts` the default (a frequent term uses impact-ordered postings). */
const ranked = async (terms: string[], scopes: string[], limit: number, impacts = false) =>
  (await store.tx((sql) => rankSections('sqlite', sql, terms, scopes, limit, impacts ? undefined : Infinity))).map((r) => r.heading);

test('fuzz: the ranking equals the exhaustive ranking of the visible rows (ACLs, ties, invisible rows outranking visible ones)', async () => {
  const section = fc.array(fc.constantFrom(...WORDS, 'filler', 'text'), { minLength: 1, maxLength: 8 }).map((w) => w.join(' '));
  const source = fc.record({ scopes: fc.subarray(SCOPES), sections: fc.array(section, { minLength: 1, maxLength: 30 }) });
  await fc.assert(
    fc.asyncProperty(fc.array(source, { minLength: 1, maxLength: 5 }), fc.subarray(WORDS, { minLength: 1, maxLength: 3 }), fc.subarray(SCOPES, { minLength: 1 }), fc.integer({ min: 1, max: 20 }), async (sources, terms, scopes, limit) => {
        await load(sources);
        assert.deepEqual(await ranked(terms, scopes, limit), await exhaustive(terms, scopes, limit));
      },
    ),
    { numRuns: 60 },
  );
});

test('more invisible matches than the window holds: the exact ranking still answers, and a hidden row never does', async () => {
  // The hidden source's sections are short and repeat the word, so all of them outrank every visible one.
  const hidden = Array.from({ length: WINDOW_MAX + 40 }, () => 'quokka quokka');
  const visible = Array.from({ length: 30 }, (_, i) => `a long visible line ${i} that mentions one quokka among other words`);
  await load([{ scopes: ['channel:b'], sections: hidden }, { scopes: ['channel:a'], sections: visible }]);
  const got = await ranked(['quokka'], ['workspace', 'channel:a'], 10);
  assert.equal(got.length, 10);
  assert.ok(got.every((h) => h.startsWith('h1.')), JSON.stringify(got));
  assert.deepEqual(got, await exhaustive(['quokka'], ['workspace', 'channel:a'], 10));
  // From the hidden source's own scope it is the other way round.
  assert.deepEqual(await ranked(['quokka'], ['channel:b'], 5), await exhaustive(['quokka'], ['channel:b'], 5));
  // quokka is in over 1,000 sections: by default its impact-ordered postings rank it, to the same answer.
  assert.deepEqual(await ranked(['quokka'], ['workspace', 'channel:a'], 10, true), got);
  assert.deepEqual(await ranked(['quokka'], ['channel:b'], 5, true), await exhaustive(['quokka'], ['channel:b'], 5));
});
