// Owns the `knowledge` domain schema steps for SQLite (FTS5, impact-ordered postings) and PostgreSQL (tsvector of pgIndexText + GIN without a pending list) (global version numbers; never edit or reorder an applied step).
import type { MigrationStep } from '../../server/store/migrations.js';

export const MIGRATIONS: readonly MigrationStep[] = [
  {
    version: 14,
    name: 'knowledge',
    sqlite: `
CREATE TABLE kb_sources (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('folder','upload')),
  created_at INTEGER NOT NULL,
  synced_at INTEGER
);
CREATE TABLE kb_source_scopes (
  source_id TEXT NOT NULL REFERENCES kb_sources(id),
  scope TEXT NOT NULL,
  PRIMARY KEY (source_id, scope)
);
CREATE INDEX kb_scopes_by_scope ON kb_source_scopes (scope, source_id);
CREATE TABLE kb_documents (
  id TEXT PRIMARY KEY,
  source_id TEXT NOT NULL REFERENCES kb_sources(id),
  path TEXT NOT NULL,
  title TEXT NOT NULL,
  hash TEXT NOT NULL,
  mtime INTEGER NOT NULL,
  section_count INTEGER NOT NULL,
  UNIQUE (source_id, path)
);
CREATE TABLE kb_sections (
  rid INTEGER PRIMARY KEY,
  document_id TEXT NOT NULL REFERENCES kb_documents(id),
  position INTEGER NOT NULL,
  heading TEXT NOT NULL,
  body TEXT NOT NULL,
  UNIQUE (document_id, position)
);
CREATE VIRTUAL TABLE kb_fts USING fts5(heading, body, content='kb_sections', content_rowid='rid', tokenize='unicode61');
CREATE TRIGGER kb_sections_ai AFTER INSERT ON kb_sections BEGIN
  INSERT INTO kb_fts(rowid, heading, body) VALUES (new.rid, new.heading, new.body);
END;
CREATE TRIGGER kb_sections_ad AFTER DELETE ON kb_sections BEGIN
  INSERT INTO kb_fts(kb_fts, rowid, heading, body) VALUES ('delete', old.rid, old.heading, old.body);
END;
`,
    postgres: `
CREATE TABLE kb_sources (
  id TEXT COLLATE "C" PRIMARY KEY,
  name TEXT NOT NULL,
  kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('folder','upload')),
  created_at BIGINT NOT NULL,
  synced_at BIGINT
);
CREATE TABLE kb_source_scopes (
  source_id TEXT COLLATE "C" NOT NULL REFERENCES kb_sources(id),
  scope TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (source_id, scope)
);
CREATE INDEX kb_scopes_by_scope ON kb_source_scopes (scope, source_id);
CREATE TABLE kb_documents (
  id TEXT COLLATE "C" PRIMARY KEY,
  source_id TEXT COLLATE "C" NOT NULL REFERENCES kb_sources(id),
  path TEXT COLLATE "C" NOT NULL,
  title TEXT NOT NULL,
  hash TEXT COLLATE "C" NOT NULL,
  mtime BIGINT NOT NULL,
  section_count INTEGER NOT NULL,
  UNIQUE (source_id, path)
);
CREATE TABLE kb_sections (
  rid BIGSERIAL PRIMARY KEY,
  document_id TEXT COLLATE "C" NOT NULL REFERENCES kb_documents(id),
  position INTEGER NOT NULL,
  heading TEXT NOT NULL,
  body TEXT NOT NULL,
  tsv tsvector NOT NULL,
  UNIQUE (document_id, position)
);
CREATE INDEX kb_sections_tsv ON kb_sections USING GIN (tsv);
`,
  },
  {
    // PostgreSQL: GIN's pending list (fastupdate) held every section inserted since the last vacuum, up to 4 MB, and each
    // search scanned it whole (150 ms at 10,000 sections, the planner then preferring a full scan); without it a search
    // reads only the posting lists of its words. SQLite: merge the FTS5 segments written so far into one.
    version: 23,
    name: 'knowledge search index without a pending list',
    sqlite: `INSERT INTO kb_fts(kb_fts) VALUES ('optimize');`,
    postgres: `
ALTER INDEX kb_sections_tsv SET (fastupdate = off);
SELECT gin_clean_pending_list('kb_sections_tsv'::regclass);
`,
  },
  {
    // SQLite: impact-ordered postings for frequent terms (written on a search's first need, kept by every section write;
    // src/domains/knowledge/impacts.ts) and FTS5's instance view to build them from. PostgreSQL ranks with ts_rank: nothing here.
    version: 61,
    name: 'knowledge impact-ordered postings',
    sqlite: `
CREATE TABLE kb_impact_terms (term TEXT PRIMARY KEY, a_ref REAL NOT NULL, df INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE kb_impacts (term TEXT NOT NULL, key REAL NOT NULL, rid INTEGER NOT NULL, tf INTEGER NOT NULL, dl INTEGER NOT NULL, PRIMARY KEY (term, key, rid)) WITHOUT ROWID;
CREATE INDEX kb_impacts_by_rid ON kb_impacts (rid, term, tf, dl);
CREATE VIRTUAL TABLE kb_fts_vinst USING fts5vocab(kb_fts, 'instance');
`,
    postgres: `SELECT 1;`,
  },
];
