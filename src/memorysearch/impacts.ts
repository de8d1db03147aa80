// Owns the memory index's impact-ordered postings: built for a term the first time a search meets it in more than
// FREQUENT_DF sections, kept current by every later write, and read by the exact top-k (src/shared/topk.ts).
import type Database from 'better-sqlite3';
import { bm25Idf, bm25Weight, foldTerm, fts5DocSize, fts5Totals, IDF_SQL, termCounts, ThresholdTopK, type Posting, type TermList } from '../shared/topk.js';

/** A term in more sections than this gets impact-ordered postings; a rarer one is scored whole by FTS5 (cheap). */
export const FREQUENT_DF = 500;
/** Postings one search may read before it gives up and lets FTS5 score every match (exact either way). */
const READ_MAX = 10_000;
/**
 * With every term required and none rare, FTS5 scores only the rows holding all of them: when few do (estimated as if the
 * terms were independent), that is cheaper than reading lists whose heads mostly lack the other terms. (With a rare term the
 * top-k resolves only that term's rows.)
 */
export const AND_ROWS_MIN = 256;
const CHUNK_FIRST = 32;
const CHUNK_MAX = 1024;

export const IMPACTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS impact_terms(term TEXT PRIMARY KEY, a_ref REAL NOT NULL, df INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS impacts(term TEXT NOT NULL, key REAL NOT NULL, rid INTEGER NOT NULL, tf INTEGER NOT NULL, dl INTEGER NOT NULL, PRIMARY KEY (term, key, rid)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS impacts_by_rid ON impacts(rid, term, tf, dl);
CREATE VIRTUAL TABLE IF NOT EXISTS temp.sections_vinst USING fts5vocab(main, 'sections', 'instance');
`;

/** The frequent terms' postings of one index database (the caller runs writes inside its own transactions). */
export class Impacts {
  private readonly q: Record<string, Database.Statement>;
  /** Terms with postings (folded), loaded at open; every section write adds its postings for these. */
  private readonly terms = new Map<string, { aRef: number; df: number }>();
  /** Postings the last top-k read (tests show it stays far below the matches). */
  lastRead = 0;
  /** FTS5's row counts (up to FREQUENT_DF + 1) of terms without postings, as searches counted them; every write forgets them. */
  private readonly seenDf = new Map<string, number>();

  constructor(private readonly db: Database.Database) {
    db.exec(IMPACTS_SCHEMA);
    this.q = {
      terms: db.prepare('SELECT term, a_ref AS aRef, df FROM impact_terms'),
      totals: db.prepare('SELECT block FROM sections_data WHERE id = 1'),
      // FTS5's row count for a term, counted only up to FREQUENT_DF + 1 (cheaper than its vocabulary view for a rare term).
      rowsUpTo: db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM sections WHERE sections MATCH ? LIMIT ${FREQUENT_DF + 1})`),
      instances: db.prepare('SELECT v.doc AS rid, count(*) AS tf, d.sz AS sz FROM temp.sections_vinst v JOIN sections_docsize d ON d.id = v.doc WHERE v.term = ? GROUP BY v.doc'),
      docsize: db.prepare('SELECT sz FROM sections_docsize WHERE id = ?'),
      insert: db.prepare('INSERT OR REPLACE INTO impacts(term, key, rid, tf, dl) VALUES (?, ?, ?, ?, ?)'),
      addTerm: db.prepare('INSERT OR REPLACE INTO impact_terms(term, a_ref, df) VALUES (?, ?, ?)'),
      setDf: db.prepare('UPDATE impact_terms SET df = ? WHERE term = ?'),
      inRange: db.prepare('SELECT term, count(*) AS n FROM impacts WHERE rid >= ? AND rid < ? GROUP BY term'),
      dropRange: db.prepare('DELETE FROM impacts WHERE rid >= ? AND rid < ?'),
      first: db.prepare('SELECT rid, key, tf, dl FROM impacts WHERE term = ? ORDER BY key DESC, rid DESC LIMIT ?'),
      next: db.prepare('SELECT rid, key, tf, dl FROM impacts WHERE term = ? AND (key, rid) < (?, ?) ORDER BY key DESC, rid DESC LIMIT ?'),
      posting: db.prepare('SELECT tf, dl FROM impacts WHERE rid = ? AND term = ?'),
      whole: db.prepare('SELECT rowid AS rid, -bm25(sections) AS c FROM sections WHERE sections MATCH ?'),
      idf: db.prepare(IDF_SQL),
    };
    for (const r of this.q.terms!.all() as Array<{ term: string; aRef: number; df: number }>) this.terms.set(r.term, { aRef: r.aRef, df: r.df });
  }

  /** Before the sections with rowids in [lo, hi) are deleted: their postings go, and their terms' counts drop. */
  removeRange(lo: number, hi: number): void {
    this.seenDf.clear();
    if (this.terms.size === 0) return;
    for (const r of this.q.inRange!.all(lo, hi) as Array<{ term: string; n: number }>) {
      const t = this.terms.get(r.term);
      if (t) this.q.setDf!.run((t.df -= r.n), r.term);
    }
    this.q.dropRange!.run(lo, hi);
  }

  /** After a section was inserted: its postings for every term that has them. */
  added(rid: number, body: string): void {
    this.seenDf.clear();
    if (this.terms.size === 0) return;
    const counts = termCounts(new Set(this.terms.keys()), body);
    if (counts.size === 0) return;
    const dl = fts5DocSize((this.q.docsize!.get(rid) as { sz: Uint8Array }).sz);
    for (const [term, tf] of counts) {
      const t = this.terms.get(term)!;
      this.q.insert!.run(term, bm25Weight(tf, dl, t.aRef), rid, tf, dl);
      this.q.setDf!.run(++t.df, term);
    }
  }

  clear(): void {
    this.db.exec('DELETE FROM impacts; DELETE FROM impact_terms;');
    this.terms.clear();
    this.seenDf.clear();
  }

  /**
   * The best `limit` sections for `words` (the query's terms, unquoted) by FTS5's bm25, or null when no term is frequent
   * (FTS5 ranks those cheaply itself) or the lists ran past READ_MAX. `and`: every term required.
   */
  topK(words: readonly string[], and: boolean, limit: number): Array<{ rid: number; score: number }> | null {
    this.lastRead = 0;
    const terms = words.map(foldTerm);
    const dfs = terms.map((t, i) => this.terms.get(t)?.df ?? this.rowsUpTo(t, words[i]!));
    if (dfs.every((d) => d <= FREQUENT_DF)) return null;
    const block = (this.q.totals!.get() as { block: Uint8Array } | undefined)?.block;
    if (!block) return [];
    const { rows, tokens } = fts5Totals(block);
    const avgdl = tokens / rows;
    const lists: TermList[] = terms.map((t, i) => {
      if (dfs[i]! <= FREQUENT_DF && !this.terms.has(t)) {
        const all = new Map<number, number>();
        for (const r of this.q.whole!.all(`"${words[i]}"`) as Array<{ rid: number; c: number }>) all.set(r.rid, r.c);
        return { idf: 0, all };
      }
      const m = this.terms.get(t) ?? this.materialize(t, avgdl);
      dfs[i] = m.df;
      return { idf: 0, aRef: m.aRef };
    });
    if (and && lists.every((l) => 'aRef' in l) && dfs.reduce((a, d) => (a * d) / rows, rows) < AND_ROWS_MIN) return null;
    const lns = this.q.idf!.all(rows, JSON.stringify(dfs)) as Array<{ ln: number }>;
    lists.forEach((l, i) => (l.idf = bm25Idf(lns[i]!.ln)));
    const ta = new ThresholdTopK(lists, limit, and, avgdl);
    let chunk = CHUNK_FIRST;
    for (;;) {
      for (const [rid, i] of ta.pending()) ta.resolve(rid, i, (this.q.posting!.get(rid, terms[i]) as Pick<Posting, 'tf' | 'dl'> | undefined) ?? null);
      this.lastRead = ta.read;
      if (ta.done()) return ta.best();
      if (ta.read > READ_MAX) return null;
      for (const { list, after } of ta.toRead()) {
        const got = (after ? this.q.next!.all(terms[list], after.key, after.rid, chunk) : this.q.first!.all(terms[list], chunk)) as Posting[];
        ta.feed(list, got, chunk);
      }
      chunk = Math.min(chunk * 2, CHUNK_MAX);
    }
  }

  /** Rows holding `word` (folded: `t`), or FREQUENT_DF + 1 when more do. */
  private rowsUpTo(t: string, word: string): number {
    let df = this.seenDf.get(t);
    if (df === undefined) {
      if (this.seenDf.size >= 4096) this.seenDf.clear();
      df = Number((this.q.rowsUpTo!.get(`"${word}"`) as { n: number }).n);
      this.seenDf.set(t, df);
    }
    return df;
  }

  /** Writes every posting of `term` once, from FTS5's own instance lists and row sizes (one statement per posting). */
  private materialize(term: string, avgdl: number): { aRef: number; df: number } {
    const rows = this.q.instances!.all(term) as Array<{ rid: number; tf: number; sz: Uint8Array }>;
    this.db.transaction(() => {
      for (const r of rows) {
        const dl = fts5DocSize(r.sz);
        this.q.insert!.run(term, bm25Weight(r.tf, dl, avgdl), r.rid, r.tf, dl);
      }
      this.q.addTerm!.run(term, avgdl, rows.length);
    })();
    const t = { aRef: avgdl, df: rows.length };
    this.terms.set(term, t);
    return t;
  }
}
