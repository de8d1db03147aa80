// Owns the knowledge index's impact-ordered postings on SQLite: written for a term the first time a search meets it in more
// than FREQUENT_DF sections, kept current by every section write, and read by the exact top-k (src/shared/topk.ts).
import type { Sql } from '../../server/store/types.js';
import { bm25Idf, bm25Weight, foldTerm, fts5DocSize, fts5Totals, IDF_SQL, termCounts, ThresholdTopK, type Posting, type TermList } from '../../shared/topk.js';
import { visibleSources } from './visible.js';

/** A term in more sections than this gets impact-ordered postings; a rarer one is scored whole by FTS5 (cheap). */
export const FREQUENT_DF = 500;
/** Postings one search may read before it gives up and lets FTS5 rank every match (exact either way). */
const READ_MAX = 10_000;
const CHUNK_FIRST = 32;
const CHUNK_MAX = 1024;

const VISIBLE = (n: number) => `JOIN kb_sections s ON s.rid = p.rid JOIN kb_documents d ON d.id = s.document_id WHERE d.source_id IN (${visibleSources(n)})`;
const chunkSql = (n: number, after: boolean) =>
  `SELECT p.rid AS rid, p.key AS key, p.tf AS tf, p.dl AS dl FROM kb_impacts p ${VISIBLE(n)} AND p.term = ?${after ? ' AND (p.key, p.rid) < (?, ?)' : ''} ORDER BY p.key DESC, p.rid DESC LIMIT ?`;
const wholeSql = (n: number) => `SELECT p.rid AS rid, p.c AS c FROM (SELECT rowid AS rid, -bm25(kb_fts) AS c FROM kb_fts WHERE kb_fts MATCH ?) p ${VISIBLE(n)}`;

type Term = { term: string; a_ref: number; df: number };

/**
 * One term's postings record (a_ref, df), or else FTS5's row count for it counted up to the bound only: one statement
 * (CASE runs the count only when the term has no record).
 */
const TERM_DF_SQL =
  'SELECT t.a_ref AS a_ref, t.df AS df, CASE WHEN t.term IS NULL THEN (SELECT count(*) FROM (SELECT 1 FROM kb_fts WHERE kb_fts MATCH ? LIMIT ?)) END AS n FROM (SELECT 1) LEFT JOIN kb_impact_terms t ON t.term = ?';

/** Before a document's sections are deleted: their postings go, and their terms' counts drop. */
export async function dropDocumentImpacts(sql: Sql, documentId: string): Promise<void> {
  const byTerm = await sql.all<{ term: string; n: number }>('SELECT term, count(*) AS n FROM kb_impacts WHERE rid IN (SELECT rid FROM kb_sections WHERE document_id = ?) GROUP BY term', [documentId]);
  if (byTerm.length === 0) return;
  for (const t of byTerm) await sql.run('UPDATE kb_impact_terms SET df = df - ? WHERE term = ?', [Number(t.n), t.term]);
  await sql.run('DELETE FROM kb_impacts WHERE rid IN (SELECT rid FROM kb_sections WHERE document_id = ?)', [documentId]);
}

/** After a document's sections were inserted: their postings for every term that has them. */
export async function addDocumentImpacts(sql: Sql, documentId: string): Promise<void> {
  const terms = new Map((await sql.all<Term>('SELECT term, a_ref, df FROM kb_impact_terms')).map((t) => [t.term, t]));
  if (terms.size === 0) return;
  const rows = await sql.all<{ rid: number; heading: string; body: string; sz: Buffer }>('SELECT s.rid AS rid, s.heading AS heading, s.body AS body, z.sz AS sz FROM kb_sections s JOIN kb_fts_docsize z ON z.id = s.rid WHERE s.document_id = ?', [documentId]);
  const keys = new Set(terms.keys());
  const add: Array<[string, number, number, number, number]> = [];
  const df = new Map<string, number>();
  for (const r of rows) {
    const counts = termCounts(keys, r.heading, r.body);
    if (counts.size === 0) continue;
    const dl = fts5DocSize(r.sz);
    for (const [term, tf] of counts) {
      add.push([term, bm25Weight(tf, dl, Number(terms.get(term)!.a_ref)), Number(r.rid), tf, dl]);
      df.set(term, (df.get(term) ?? 0) + 1);
    }
  }
  if (add.length > 0) await insertPostings(sql, add);
  for (const [term, n] of df) await sql.run('UPDATE kb_impact_terms SET df = df + ? WHERE term = ?', [n, term]);
}

const insertPostings = (sql: Sql, rows: Array<[string, number, number, number, number]>) =>
  sql.run(
    "INSERT OR REPLACE INTO kb_impacts (term, key, rid, tf, dl) SELECT value ->> '$[0]', value ->> '$[1]', value ->> '$[2]', value ->> '$[3]', value ->> '$[4]' FROM json_each(?)",
    [JSON.stringify(rows)],
  );

/** Writes every posting of `term` once, from FTS5's own instance lists and row sizes. */
async function materialize(sql: Sql, term: string, avgdl: number): Promise<Term> {
  const rows = await sql.all<{ rid: number; tf: number; sz: Buffer }>('SELECT v.doc AS rid, count(*) AS tf, z.sz AS sz FROM kb_fts_vinst v JOIN kb_fts_docsize z ON z.id = v.doc WHERE v.term = ? GROUP BY v.doc', [term]);
  for (let i = 0; i < rows.length; i += 4096) {
    await insertPostings(
      sql,
      rows.slice(i, i + 4096).map((r) => {
        const dl = fts5DocSize(r.sz);
        return [term, bm25Weight(Number(r.tf), dl, avgdl), Number(r.rid), Number(r.tf), dl];
      }),
    );
  }
  await sql.run('INSERT OR REPLACE INTO kb_impact_terms (term, a_ref, df) VALUES (?, ?, ?)', [term, avgdl, rows.length]);
  return { term, a_ref: avgdl, df: rows.length };
}

/**
 * The best `limit` visible sections for `terms` (any term) by FTS5's bm25, best first with positive scores, or null when no
 * term is frequent (in more than `frequentDf` sections) (FTS5 ranks those cheaply itself) or the lists ran past READ_MAX. Security invariant: only rows of
 * sources the scopes may read are ever candidates.
 */
export async function impactTopK(sql: Sql, terms: readonly string[], scopes: readonly string[], limit: number, frequentDf = FREQUENT_DF): Promise<Array<{ rid: number; score: number }> | null> {
  if (!Number.isFinite(frequentDf)) return null;
  const folded = terms.map(foldTerm);
  // Each term's postings record, or else FTS5's row count for it, counted up to frequentDf + 1 only (a statement per term
  // costs less than one joining a JSON array to both).
  const known = new Map<string, Term>();
  const dfs: number[] = [];
  for (const [i, f] of folded.entries()) {
    const t = (await sql.get<{ a_ref: number | null; df: number | null; n: number | null }>(TERM_DF_SQL, [`"${terms[i]}"`, frequentDf + 1, f]))!;
    if (t.df !== null) known.set(f, { term: f, a_ref: Number(t.a_ref), df: Number(t.df) });
    dfs.push(Number(t.df ?? t.n));
  }
  if (dfs.every((d) => d <= frequentDf)) return null;
  const block = (await sql.get<{ block: Buffer }>('SELECT block FROM kb_fts_data WHERE id = 1'))?.block;
  if (!block) return [];
  const { rows, tokens } = fts5Totals(block);
  const avgdl = tokens / rows;
  const lists: TermList[] = [];
  for (const [i, t] of folded.entries()) {
    if (dfs[i]! <= frequentDf && !known.has(t)) {
      const all = new Map<number, number>();
      for (const r of await sql.all<{ rid: number; c: number }>(wholeSql(scopes.length), [`"${terms[i]}"`, ...scopes])) all.set(Number(r.rid), Number(r.c));
      lists.push({ idf: 0, all });
    } else {
      const m = known.get(t) ?? (await materialize(sql, t, avgdl));
      dfs[i] = Number(m.df);
      lists.push({ idf: 0, aRef: Number(m.a_ref) });
    }
  }
  const lns = await sql.all<{ ln: number }>(IDF_SQL, [rows, JSON.stringify(dfs)]);
  lists.forEach((l, i) => (l.idf = bm25Idf(Number(lns[i]!.ln))));
  const ta = new ThresholdTopK(lists, limit, false, avgdl);
  let chunk = CHUNK_FIRST;
  for (;;) {
    const pend = ta.pending();
    if (pend.length > 0) {
      const got = await sql.all<{ rid: number; term: string; tf: number; dl: number }>(
        'SELECT rid, term, tf, dl FROM kb_impacts WHERE rid IN (SELECT value FROM json_each(?)) AND term IN (SELECT value FROM json_each(?))',
        [JSON.stringify([...new Set(pend.map((p) => p[0]))]), JSON.stringify([...new Set(pend.map((p) => folded[p[1]]!))])],
      );
      const at = new Map(got.map((g) => [`${g.rid} ${g.term}`, { tf: Number(g.tf), dl: Number(g.dl) }]));
      for (const [rid, i] of pend) ta.resolve(rid, i, at.get(`${rid} ${folded[i]}`) ?? null);
    }
    if (ta.done()) return ta.best();
    if (ta.read > READ_MAX) return null;
    for (const { list, after } of ta.toRead()) {
      const params = after ? [...scopes, folded[list]!, after.key, after.rid, chunk] : [...scopes, folded[list]!, chunk];
      const got = await sql.all<Posting>(chunkSql(scopes.length, after !== undefined), params);
      ta.feed(list, got.map((g) => ({ rid: Number(g.rid), key: Number(g.key), tf: Number(g.tf), dl: Number(g.dl) })), chunk);
    }
    chunk = Math.min(chunk * 2, CHUNK_MAX);
  }
}
