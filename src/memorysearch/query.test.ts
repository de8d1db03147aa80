// Fuzzes query sanitizing against a real FTS5 index: no user string can make the index throw or reach FTS5 syntax.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import fc from 'fast-check';
import { MAX_TERMS, toFtsQuery } from './query.js';
import { splitSections } from './sections.js';
import { IndexStore } from './store.js';

const dir = mkdtempSync(join(tmpdir(), 'memq-'));
const store = new IndexStore(join(dir, 'q.db'));
store.batch(() => {
  store.replace('a.md', { mtimeMs: 1, size: 1 }, splitSections('# AND OR NOT NEAR\nbody: "quoted" (paren) col:val ^start *star\nnaïve café 東京 emoji 🎉 data_base\n'));
  store.replace('b.md', { mtimeMs: 1, size: 1 }, splitSections('plain words only\n'));
});
after(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const HOSTILE = ['"', '""', 'AND', 'OR NOT', 'NEAR(a b, 3)', 'body:x', 'col:val', '^start', '*', 'a*b', '(', ')', '-x', '+x', '{a b}', "'; DROP TABLE files; --", '\u0000', '\ud800', 'a\u0000b', 'x'.repeat(10_000), 'NOT', 'near/2'];

function searchNeverThrows(q: string): void {
  const fts = toFtsQuery(q);
  if (fts === null) return;
  store.search(fts, 5);
}

test('hostile strings are searched (or refused as having no words) without an exception', () => {
  for (const q of HOSTILE) assert.doesNotThrow(() => searchNeverThrows(q), JSON.stringify(q.slice(0, 40)));
});

test('keywords, columns and quotes are searched as plain words', () => {
  const hits = (q: string) => store.search(toFtsQuery(q)!, 5).map((h) => h.path);
  assert.deepEqual(hits('AND'), ['a.md']);
  assert.deepEqual(hits('body:quoted'), ['a.md']);
  assert.deepEqual(hits('"paren"'), ['a.md']);
  assert.deepEqual(hits('NAIVE CAFE'), ['a.md'], 'case and diacritics are folded');
  assert.deepEqual(hits('東京'), ['a.md']);
  assert.deepEqual(hits('OR'), ['a.md'], 'OR alone is a word, not an operator');
  assert.deepEqual(hits('plain words'), ['b.md'], 'every word is required first');
  assert.deepEqual(hits('plain NEAR').sort(), ['a.md', 'b.md'], 'then any word, when no section has all');
});

test('fuzz: any unicode string (and any mix of FTS5 syntax characters) never throws', () => {
  const syntax = fc.array(fc.constantFrom('"', '*', '(', ')', ':', '^', '-', '+', ' ', 'AND', 'OR', 'NOT', 'NEAR', 'a', 'é', '\u0000', '{', '}', ','), { maxLength: 40 }).map((a) => a.join(''));
  fc.assert(
    fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 200 }), syntax), (q) => {
      searchNeverThrows(q);
      const fts = toFtsQuery(q);
      if (fts === null) return;
      // Only quoted terms (optionally with a prefix star) joined by spaces or OR.
      assert.match(fts.all, /^"[^"]+"\*?( "[^"]+"\*?)*$/u);
      assert.ok(fts.all.split('" ').length <= MAX_TERMS);
    }),
    { numRuns: 2000 },
  );
});
