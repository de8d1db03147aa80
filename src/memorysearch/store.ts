// Owns the memory index database (SQLite FTS5, one 0600 file per clone): schema, per-file replace/delete, bm25 search.
import { closeSync, existsSync, openSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { snippetOf } from '../shared/snippet.js';
import { foldTerm } from '../shared/topk.js';
import { Impacts } from './impacts.js';
import type { FtsQuery } from './query.js';
import { SECTIONS_PER_FILE, type Section } from './sections.js';

/** Bumped when the schema or the sectioning changes; a database of another version is rebuilt. */
const SCHEMA_VERSION = '2';
export const SNIPPET_TOKENS = 12;
export const MAX_SNIPPET_CHARS = 160;
/** Limits up to this get a statement of their own with the LIMIT literal (memory_search allows 20). */
const LITERAL_LIMIT_MAX = 100;

export interface FileStamp {
  mtimeMs: number;
  size: number;
}

export interface Hit {
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  snippet: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, mtime_ms INTEGER NOT NULL, size INTEGER NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS sections USING fts5(body, start_line UNINDEXED, end_line UNINDEXED, tokenize = 'unicode61 remove_diacritics 2');
`;

/** Deletes an index database and its WAL files (a rebuild starts from nothing). */
export function removeIndexFiles(path: string): void {
  for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
}

/** One clone's index. All calls are synchronous (better-sqlite3); callers keep each batch small. */
export class IndexStore {
  private readonly db: Database.Database;
  private readonly q: Record<string, Database.Statement>;
  readonly impacts: Impacts;
  private readonly searchSql: (limit: string) => string;
  /** The search statement per literal limit (1..LITERAL_LIMIT_MAX), prepared on first use. */
  private readonly searches = new Map<number, Database.Statement>();
  /**
   * A rare word's rows and bm25 scores only, best first, ties by rowid: ordering by bm25() itself rather than `rank` costs
   * FTS5 about 20 µs less, and the snippets are cut in JS from the kept rows' bodies (locate), not by snippet().
   */
  private readonly rareSql = (limit: string) => `SELECT rowid AS rid, bm25(sections) AS score FROM sections WHERE sections MATCH ? ORDER BY score, rowid LIMIT ${limit}`;
  private readonly rares = new Map<number, Database.Statement>();

  /** Opens (creating 0600) the database at `path`; a file of another schema version is deleted and recreated. */
  constructor(readonly path: string) {
    if (!existsSync(path)) closeSync(openSync(path, 'wx', 0o600)); // Security invariant: the index file is created owner-only.
    let db = new Database(path);
    if (!IndexStore.current(db)) {
      db.close();
      removeIndexFiles(path);
      closeSync(openSync(path, 'wx', 0o600));
      db = new Database(path);
    }
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA);
    db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run('schema', SCHEMA_VERSION);
    this.db = db;
    this.impacts = new Impacts(db);
    // A prefix query's statement. FTS5 consumes ORDER BY rank LIMIT itself, so snippet() runs for the rows returned only. The LIMIT is written into
    // the text (one statement per limit, see withLimit): a bound LIMIT cost FTS5 about 20 µs more per query.
    this.searchSql = (limit: string) =>
      `SELECT f.path AS path, s.start_line AS startLine, s.end_line AS endLine, s.score AS score, s.snip AS snippet FROM
         (SELECT rowid, start_line, end_line, -bm25(sections) AS score, snippet(sections, 0, '', '', '…', ${SNIPPET_TOKENS}) AS snip
          FROM sections WHERE sections MATCH ? ORDER BY rank LIMIT ${limit}) s
         JOIN files f ON f.id = s.rowid / ${SECTIONS_PER_FILE} ORDER BY s.score DESC`;
    this.q = {
      stamps: db.prepare('SELECT path, mtime_ms AS mtimeMs, size FROM files'),
      fileId: db.prepare('SELECT id FROM files WHERE path = ?'),
      insertFile: db.prepare('INSERT INTO files(path, mtime_ms, size) VALUES (?, ?, ?)'),
      updateFile: db.prepare('UPDATE files SET mtime_ms = ?, size = ? WHERE id = ?'),
      deleteFile: db.prepare('DELETE FROM files WHERE id = ?'),
      clearSections: db.prepare('DELETE FROM sections WHERE rowid >= ? AND rowid < ?'),
      insertSection: db.prepare('INSERT INTO sections(rowid, body, start_line, end_line) VALUES (?, ?, ?, ?)'),
      search: db.prepare(this.searchSql('?')),
      rare: db.prepare(this.rareSql('?')),
      // The rows kept: locators and text (snippets are cut in JS), or FTS5's snippets for a prefix query.
      bodies: db.prepare(
        `SELECT s.rowid AS rid, f.path AS path, s.start_line AS startLine, s.end_line AS endLine, s.body AS body
         FROM sections s JOIN files f ON f.id = s.rowid / ${SECTIONS_PER_FILE} WHERE s.rowid IN (SELECT value FROM json_each(?))`,
      ),
      located: db.prepare(
        `SELECT s.rowid AS rid, f.path AS path, s.start_line AS startLine, s.end_line AS endLine, snippet(sections, 0, '', '', '…', ${SNIPPET_TOKENS}) AS snippet
         FROM sections s JOIN files f ON f.id = s.rowid / ${SECTIONS_PER_FILE} WHERE sections MATCH ? AND s.rowid IN (SELECT value FROM json_each(?))`,
      ),
    };
  }

  private static current(db: Database.Database): boolean {
    try {
      const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'meta'").get();
      if (!hasMeta) return (db.prepare('SELECT count(*) AS n FROM sqlite_master').get() as { n: number }).n === 0;
      return (db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as { value?: string } | undefined)?.value === SCHEMA_VERSION;
    } catch {
      return false; // not a database, or corrupt: rebuilt
    }
  }

  /** Every indexed file with the stamp it was indexed at. */
  stamps(): Map<string, FileStamp> {
    const m = new Map<string, FileStamp>();
    for (const r of this.q.stamps!.all() as Array<{ path: string } & FileStamp>) m.set(r.path, { mtimeMs: r.mtimeMs, size: r.size });
    return m;
  }

  /** Runs fn in one transaction (a batch of replace/remove). */
  batch(fn: () => void): void {
    this.db.transaction(fn)();
  }

  /** Replaces one file's sections (by rowid range, never a table scan). */
  replace(path: string, stamp: FileStamp, sections: readonly Section[]): void {
    const row = this.q.fileId!.get(path) as { id: number } | undefined;
    let id: number;
    if (row) {
      id = row.id;
      this.q.updateFile!.run(Math.trunc(stamp.mtimeMs), stamp.size, id);
      this.impacts.removeRange(id * SECTIONS_PER_FILE, (id + 1) * SECTIONS_PER_FILE);
      this.q.clearSections!.run(id * SECTIONS_PER_FILE, (id + 1) * SECTIONS_PER_FILE);
    } else {
      id = Number(this.q.insertFile!.run(path, Math.trunc(stamp.mtimeMs), stamp.size).lastInsertRowid);
    }
    sections.forEach((s, n) => {
      this.q.insertSection!.run(id * SECTIONS_PER_FILE + n, s.body, s.startLine, s.endLine);
      this.impacts.added(id * SECTIONS_PER_FILE + n, s.body);
    });
  }

  remove(path: string): void {
    const row = this.q.fileId!.get(path) as { id: number } | undefined;
    if (!row) return;
    this.impacts.removeRange(row.id * SECTIONS_PER_FILE, (row.id + 1) * SECTIONS_PER_FILE);
    this.q.clearSections!.run(row.id * SECTIONS_PER_FILE, (row.id + 1) * SECTIONS_PER_FILE);
    this.q.deleteFile!.run(row.id);
  }

  /** Drops every entry (the clone folder was replaced: nothing read from the old one may answer). */
  clear(): void {
    this.batch(() => {
      this.db.exec('DELETE FROM sections; DELETE FROM files;');
      this.impacts.clear();
    });
  }

  /**
   * Best sections first: every term required, or (when that finds nothing) any term. A query with a frequent term is ranked
   * by the exact top-k over impact-ordered postings (the same bm25 scores FTS5 gives, without scoring every match).
   */
  search(query: FtsQuery, limit: number): Hit[] {
    if (!query.prefix) {
      const top = this.impacts.topK(query.words, true, limit);
      if (top !== null && (top.length > 0 || query.words.length === 1)) return this.locate(query, query.all, top);
      const any = top !== null && query.words.length > 1 ? this.impacts.topK(query.words, false, limit) : null;
      if (any !== null) return this.locate(query, query.any, any);
    }
    // Rare words: FTS5 scores every match (few) and the rows kept get their snippets in JS like the top-k's; a prefix
    // query (not matchable in JS) keeps FTS5's own snippet() in the statement.
    const run = query.prefix
      ? (expr: string) => (this.withLimit(this.searches, this.searchSql, this.q.search!, limit).all(expr) as Hit[]).map((h) => ({ ...h, score: Math.round(h.score * 1000) / 1000, snippet: clip(h.snippet) }))
      : (expr: string) => this.locate(query, expr, (this.withLimit(this.rares, this.rareSql, this.q.rare!, limit).all(expr) as Array<{ rid: number; score: number }>).map((r) => ({ rid: r.rid, score: -r.score })));
    const hits = run(query.all);
    return hits.length > 0 || query.any === query.all ? hits : run(query.any);
  }

  /** `sql` with `limit` written in as its LIMIT literal (one statement per small limit, prepared on first use), else `bound`. */
  private withLimit(cache: Map<number, Database.Statement>, sql: (limit: string) => string, bound: Database.Statement, limit: number): { all(expr: string): unknown[] } {
    if (!Number.isInteger(limit) || limit < 1 || limit > LITERAL_LIMIT_MAX) return { all: (expr) => bound.all(expr, limit) };
    let st = cache.get(limit);
    if (!st) cache.set(limit, (st = this.db.prepare(sql(String(limit)))));
    return st;
  }

  private locate(query: FtsQuery, expr: string, top: ReadonlyArray<{ rid: number; score: number }>): Hit[] {
    if (top.length === 0) return [];
    const rids = JSON.stringify(top.map((t) => t.rid));
    const terms = new Set(query.words.map(foldTerm));
    const found = query.prefix
      ? (this.q.located!.all(expr, rids) as Array<Omit<Hit, 'score'> & { rid: number }>)
      : (this.q.bodies!.all(rids) as Array<Omit<Hit, 'score' | 'snippet'> & { rid: number; body: string }>).map(({ body, ...r }) => ({ ...r, snippet: snippetOf(body, terms, SNIPPET_TOKENS) }));
    const rows = new Map(found.map((r) => [r.rid, r]));
    return top.flatMap((t) => {
      const r = rows.get(t.rid);
      return r ? [{ path: r.path, startLine: r.startLine, endLine: r.endLine, score: Math.round(t.score * 1000) / 1000, snippet: clip(r.snippet) }] : [];
    });
  }

  /**
   * One FTS5 merge step of about `pages` pages toward a single segment; true when it merged something. A build leaves the
   * index in many segments (one per batch), and every term lookup reads each (10,000 files: a rare word 121 → 95 µs merged).
   */
  mergeStep(pages: number): boolean {
    const before = this.db.prepare('SELECT total_changes() AS n').get() as { n: number };
    this.db.prepare("INSERT INTO sections(sections, rank) VALUES('merge', ?)").run(-pages);
    // FTS5 documents it: a change count that grew by 2 or more means the step merged something.
    return (this.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n - before.n >= 2;
  }

  get fileCount(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
  }

  close(): void {
    this.db.close();
  }
}

function clip(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_SNIPPET_CHARS ? `${flat.slice(0, MAX_SNIPPET_CHARS - 1)}…` : flat;
}
