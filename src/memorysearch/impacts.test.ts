// Tests the memory index's exact top-k on frequent terms: on a corpus with planted best sections it returns them, equals
// FTS5's exhaustive bm25 ranking (rows and scores) for AND and the OR fallback, reads far fewer postings than there are
// matches, and stays exact after files are replaced, removed, added and the average section length grows.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { FREQUENT_DF } from './impacts.js';
import { toFtsQuery } from './query.js';
import { splitSections } from './sections.js';
import { IndexStore } from './store.js';

const dir = mkdtempSync(join(tmpdir(), 'memk-'));
const path = join(dir, 'k.db');
const store = new IndexStore(path);
const peek = new Database(path, { readonly: true });
after(() => {
  peek.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

let seed = 7;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const FILLER = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit', 'sed', 'tempor'];
/** A section of `n` words: apple and pear each with probability `p`, the rest filler. */
const words = (n: number, p: number) => Array.from({ length: n }, () => (rand() < p ? 'apple' : rand() < p ? 'pear' : FILLER[Math.floor(rand() * FILLER.length)])).join(' ');
const file = (sections: string[]) => splitSections(sections.map((s, i) => `# part ${i}\n${s}`).join('\n'));
const put = (name: string, sections: string[]) => store.batch(() => store.replace(name, { mtimeMs: 1, size: 1 }, file(sections)));

/** FTS5 scoring every match: the ranking the top-k must equal (path, first line, score to 3 places). */
function exhaustive(expr: string, limit: number): string[] {
  const rows = peek
    .prepare(`SELECT f.path AS path, s.start_line AS line, -bm25(sections) AS score, s.rowid AS rid FROM sections s JOIN files f ON f.id = s.rowid / 1024 WHERE sections MATCH ? ORDER BY bm25(sections), s.rowid LIMIT ?`)
    .all(expr, limit) as Array<{ path: string; line: number; score: number }>;
  return rows.map((r) => `${r.path}:${r.line}:${Math.round(r.score * 1000) / 1000}`);
}
const ranked = (q: string, limit = 5) => store.search(toFtsQuery(q)!, limit).map((h) => `${h.path}:${h.startLine}:${h.score}`);
const matches = (expr: string) => (peek.prepare('SELECT count(*) AS n FROM sections WHERE sections MATCH ?').get(expr) as { n: number }).n;

test('two frequent words: the planted best sections come first, exactly as FTS5 ranks every match, from a fraction of the postings', () => {
  for (let f = 0; f < 400; f++) put(`notes/n${f}.md`, [words(30 + Math.floor(rand() * 40), 0.05), words(20 + Math.floor(rand() * 60), 0.04), words(40, 0.05)]);
  // Short sections dense in both words: the best answers by any sensible measure.
  put('planted/best.md', ['apple pear apple pear apple pear apple pear', 'pear apple pear apple pear apple lorem']);
  assert.ok(matches('"apple"') > FREQUENT_DF && matches('"pear"') > FREQUENT_DF, 'both words are frequent');
  const got = ranked('apple pear');
  assert.deepEqual(got, exhaustive('"apple" "pear"', 5));
  assert.deepEqual(got.slice(0, 2).map((h) => h.split(':').slice(0, 2).join(':')), ['planted/best.md:1', 'planted/best.md:3']);
  const read = store.impacts.lastRead;
  assert.ok(read > 0 && read < matches('"apple" OR "pear"') / 2, `read ${read} postings`);
  for (const limit of [1, 7, 20]) assert.deepEqual(ranked('pear apple', limit), exhaustive('"pear" "apple"', limit));
  assert.deepEqual(ranked('apple'), exhaustive('"apple"', 5));
});

test('a frequent word with a rare one, and the OR fallback when no section holds both', () => {
  put('rare/a.md', ['apple quokka lorem ipsum', 'quokka dolor sit amet']);
  assert.deepEqual(ranked('apple quokka'), exhaustive('"apple" "quokka"', 5));
  put('rare/b.md', ['wombat alone here']);
  assert.equal(matches('"pear" "wombat"'), 0);
  assert.deepEqual(ranked('pear wombat'), exhaustive('"pear" OR "wombat"', 5), 'no section holds both: any word, as FTS5 ranks the OR');
  assert.equal(ranked('pear wombat')[0], 'rare/b.md:1:' + exhaustive('"wombat"', 1)[0]!.split(':')[2]);
  assert.deepEqual(ranked('apple pear', 10).length, 10);
});

test('after replaced, removed and added files, and longer sections raising the average length, the top-k is still exact', () => {
  put('planted/best.md', ['nothing of either word here']);
  assert.ok(!ranked('apple pear').some((h) => h.startsWith('planted/')), 'the replaced sections left the postings');
  assert.deepEqual(ranked('apple pear'), exhaustive('"apple" "pear"', 5));
  store.batch(() => store.remove('notes/n3.md'));
  put('planted/new.md', ['apple pear pear apple', words(500, 0.2)]);
  assert.deepEqual(ranked('apple pear'), exhaustive('"apple" "pear"', 5));
  for (let f = 0; f < 60; f++) put(`long/l${f}.md`, [words(600, 0.05)]);
  for (const q of ['apple pear', 'pear', 'apple lorem']) assert.deepEqual(ranked(q, 8), exhaustive(toFtsQuery(q)!.all, 8), q);
});

test('a rare word (FTS5 ranks it): the LIMIT written into the statement or bound gives FTS5 exhaustive ranking at every limit', () => {
  put('rarelim/a.md', Array.from({ length: 30 }, (_, i) => `kiwi ${words(5 + i * 3, 0)}`));
  for (const limit of [1, 2, 5, 20, 100, 101, 250]) assert.deepEqual(ranked('kiwi', limit), exhaustive('"kiwi"', limit), `limit ${limit}`);
  assert.equal(ranked('kiwi', 250).length, 30);
  assert.deepEqual(store.search(toFtsQuery('kiwi')!, 7), store.search(toFtsQuery('kiwi')!, 20).slice(0, 7), 'a smaller limit keeps the best rows, snippets included');
});
