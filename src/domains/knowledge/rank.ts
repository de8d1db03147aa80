// Owns ranking knowledge sections for a search: the best `limit` sections of the sources a turn's scopes may read, with
// snippets, on SQLite (FTS5 bm25) and PostgreSQL (ts_rank), scoring each match once and computing snippets only for the rows returned.
import type { Sql, SqlValue } from '../../server/store/types.js';
import { snippetOf } from '../../shared/snippet.js';
import { foldTerm } from '../../shared/topk.js';
import { impactTopK } from './impacts.js';
import { ftsMatch, pgWords } from './query.js';
import { visibleSources } from './visible.js';

export interface RankedRow {
  document_id: string;
  position: number;
  title: string;
  heading: string;
  snippet: string;
  score: number;
}

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
/**
 * Row ids bound one by one, their count rounded up to a power of two by repeating the last (an IN list ignores repeats),
 * so a handful of statement texts serve every count and stay prepared.
 */
function padded(rids: readonly number[]): number[] {
  let n = 1;
  while (n < rids.length) n *= 2;
  return Array.from({ length: n }, (_, i) => rids[Math.min(i, rids.length - 1)]!);
}
/** Windows up to this many rows are joined by bound row ids; larger ones pass one JSON array. */
const BOUND_RIDS_MAX = 64;
const COLS = 's.rid AS rid, s.document_id AS document_id, s.position AS position, d.title AS title, s.heading AS heading';
/** The bodies of the `n` rows returned only (their snippets are cut in JS); rowids bound one by one. */
const bodiesSql = (n: number) => `SELECT rid, body FROM kb_sections WHERE rid IN (${marks(n)})`;
const SNIPPET_TOKENS = 16;

/**
 * The sections no turn with these scopes may read: an upper bound on the invisible matches of any query (section_count
 * is written with the sections, in putDocument's transaction). Only the hidden sources' documents are visited (through
 * the (source_id, path) index), not every document.
 */
const hiddenSections = (n: number) => `SELECT COALESCE(SUM(section_count), 0) FROM kb_documents WHERE source_id IN (SELECT id FROM kb_sources WHERE id NOT IN (${visibleSources(n)}))`;
/** Rows the window holds at most; past it a window short of `limit` visible rows falls back to the streamed exact ranking. */
export const WINDOW_MAX = 1024;
/** The best `limit + hidden` matches in (score, rowid) order: FTS5 scores each match once, a bounded sorter keeps the window. */
const windowSql = (n: number) => `SELECT rowid AS rid, rank AS score FROM kb_fts WHERE kb_fts MATCH ? ORDER BY rank, rowid LIMIT min(? + (${hiddenSections(n)}), ${WINDOW_MAX})`;
/**
 * Every visible match in the full order: bm25 runs once per match in a subquery SQLite keeps as a co-routine in
 * (score, rowid) order, so rows are joined and filtered only until `limit` visible ones are found.
 */
const exactSql = (n: number) =>
  `SELECT ${COLS}, t.score AS score FROM (SELECT rowid AS rid, bm25(kb_fts) AS score FROM kb_fts WHERE kb_fts MATCH ? ORDER BY score, rowid LIMIT -1 OFFSET 0) t JOIN kb_sections s ON s.rid = t.rid JOIN kb_documents d ON d.id = s.document_id WHERE d.source_id IN (${visibleSources(n)}) ORDER BY t.score, t.rid LIMIT ?`;
const metaSql = (rids: string, n: number, body = false) => `SELECT ${COLS}${body ? ', s.body AS body' : ''} FROM kb_sections s JOIN kb_documents d ON d.id = s.document_id WHERE s.rid IN (${rids}) AND d.source_id IN (${visibleSources(n)})`;

type Meta = Omit<RankedRow, 'snippet' | 'score'> & { rid: number };

/**
 * SQLite, one bm25 pass. The window is a prefix of the full order (score, rowid), so its first `limit` visible rows are the
 * exact answer when it holds that many; it does unless capped: at most `hidden` of its rows are invisible, and a window
 * that is not full holds every match. A capped window short of `limit` visible rows falls back to the exact ranking.
 * Only the window is joined to its documents. Security invariant: a row is returned only after the source filter.
 */
async function rankSqlite(sql: Sql, terms: string[], scopes: string[], limit: number, frequentDf?: number): Promise<RankedRow[]> {
  const match = ftsMatch(terms);
  const best = await impactTopK(sql, terms, scopes, limit, frequentDf);
  if (best !== null) return located(sql, terms, scopes, best);
  // Rare words: the best `limit` matches of every source first (ordered by bm25() itself, which FTS5 runs faster than
  // `rank`). When all of them are visible they are the answer; otherwise the window below, sized for the hidden rows.
  const first = await sql.all<{ rid: number; score: number }>(FIRST_SQL, [match, limit]);
  if (first.length === 0) return [];
  const seen = await visibleRows(sql, terms, scopes, first);
  if (seen.length === first.length || first.length < limit) return seen;
  const top = await sql.all<{ rid: number; score: number }>(windowSql(scopes.length), [match, limit, ...scopes]);
  if (top.length === 0) return [];
  // The window's rows are joined to their documents a slice at a time, best first (the first `limit` usually suffice),
  // until `limit` visible ones are found.
  let rows: Array<Meta & { score: number }> = [];
  for (let from = 0, size = limit; from < top.length && rows.length < limit; from += size, size *= 4) {
    const slice = top.slice(from, from + size);
    const rids = slice.map((t) => t.rid);
    const bound = rids.length <= BOUND_RIDS_MAX ? padded(rids) : undefined;
    const meta = await sql.all<Meta>(metaSql(bound ? marks(bound.length) : 'SELECT value FROM json_each(?)', scopes.length), [...(bound ?? [JSON.stringify(rids)]), ...scopes]);
    const byRid = new Map(meta.map((m) => [Number(m.rid), m]));
    for (const t of slice) {
      const m = byRid.get(Number(t.rid));
      if (m) rows.push({ ...m, score: t.score });
      if (rows.length === limit) break;
    }
  }
  if (rows.length < limit && top.length >= WINDOW_MAX) rows = await sql.all<Meta & { score: number }>(exactSql(scopes.length), [match, ...scopes, limit]);
  return snippets(sql, terms, rows);
}

/** The best `limit` matches in (score, rowid) order, visible or not (bm25 is negative: lower is better). */
const FIRST_SQL = 'SELECT rowid AS rid, bm25(kb_fts) AS score FROM kb_fts WHERE kb_fts MATCH ? ORDER BY score, rowid LIMIT ?';

/** The visible ones of `rows`, in their order, with their snippets. Security invariant: a row is kept only after the source filter. */
async function visibleRows(sql: Sql, terms: string[], scopes: string[], rows: ReadonlyArray<{ rid: number; score: number }>): Promise<RankedRow[]> {
  const bound = padded(rows.map((r) => r.rid));
  const found = await sql.all<Meta & { body: string }>(metaSql(marks(bound.length), scopes.length, true), [...bound, ...scopes]);
  const meta = new Map(found.map((m) => [Number(m.rid), m]));
  const folded = new Set(terms.map(foldTerm));
  return rows.flatMap((r) => {
    const m = meta.get(Number(r.rid));
    return m ? [{ document_id: m.document_id, position: m.position, title: m.title, heading: m.heading, snippet: snippetOf(m.body, folded, SNIPPET_TOKENS, '[', ']'), score: r.score }] : [];
  });
}

/** The exact top-k's rows (src/domains/knowledge/impacts.ts), joined to their documents again (visible ones only) with snippets. */
async function located(sql: Sql, terms: string[], scopes: string[], best: ReadonlyArray<{ rid: number; score: number }>): Promise<RankedRow[]> {
  if (best.length === 0) return [];
  return visibleRows(sql, terms, scopes, best.map((b) => ({ rid: b.rid, score: -b.score })));
}

/** Each row's snippet: the 16-token window of its body with the most query terms, hits in [brackets] (src/shared/snippet.ts). */
async function snippets(sql: Sql, terms: string[], rows: Array<Meta & { score: number }>): Promise<RankedRow[]> {
  if (rows.length === 0) return [];
  const snipRids = padded(rows.map((r) => r.rid));
  const folded = new Set(terms.map(foldTerm));
  const bodies = await sql.all<{ rid: number; body: string }>(bodiesSql(snipRids.length), snipRids);
  const snip = new Map(bodies.map((b) => [Number(b.rid), snippetOf(b.body, folded, SNIPPET_TOKENS, '[', ']')]));
  return rows.map((r) => ({ document_id: r.document_id, position: r.position, title: r.title, heading: r.heading, snippet: snip.get(Number(r.rid)) ?? '', score: r.score }));
}

/** PostgreSQL: ts_rank orders the visible matches in a subquery; ts_headline runs only for the `limit` rows it keeps. */
function rankPostgres(sql: Sql, terms: string[], scopes: string[], limit: number): Promise<RankedRow[]> {
  const params: SqlValue[] = [pgWords(terms), ...scopes, limit];
  return sql.all<RankedRow>(
    `SELECT t.document_id AS document_id, t.position AS position, t.title AS title, t.heading AS heading, ts_headline('simple', s.body, t.q, 'StartSel=[,StopSel=],MaxWords=24,MinWords=8') AS snippet, t.score AS score FROM (SELECT ${COLS}, x.q AS q, ts_rank(s.tsv, x.q) AS score FROM (SELECT replace(plainto_tsquery('simple', ?)::text, '&', '|')::tsquery AS q) x, kb_sections s JOIN kb_documents d ON d.id = s.document_id WHERE s.tsv @@ x.q AND d.source_id IN (${visibleSources(scopes.length)}) ORDER BY score DESC, s.rid LIMIT ?) t JOIN kb_sections s ON s.rid = t.rid ORDER BY t.score DESC, t.rid`,
    params,
  );
}

/** `frequentDf` (SQLite; tests): past how many matching sections a term is ranked from impact-ordered postings (impacts.ts). */
export function rankSections(dialect: 'sqlite' | 'postgres', sql: Sql, terms: string[], scopes: string[], limit: number, frequentDf?: number): Promise<RankedRow[]> {
  return dialect === 'sqlite' ? rankSqlite(sql, terms, scopes, limit, frequentDf) : rankPostgres(sql, terms, scopes, limit);
}
