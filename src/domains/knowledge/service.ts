// Owns the knowledge base on the server: owner-managed sources with scope ACLs, document upserts split into sections, and turn-bound search and fetch.
import { AppError } from '../../shared/errors.js';
import { idOf, iso, requireOwner, type Actor, type DomainDeps } from '../../server/context.js';
import { listPage, MAX_LIMIT, type Ordering } from '../../server/pagination.js';
import type { Sql } from '../../server/store/types.js';
import { checkText, clipText, fittingPrefix } from '../../shared/bounds.js';
import { ID_RE } from '../../shared/ids.js';
import { FETCH_PAGE_BYTES, HIT_TEXT_BYTES, HITS_BYTES_MAX, KB_BOUNDS, SEARCH_DEFAULT_LIMIT, SECTION_BYTES_MAX, HEADING_BYTES_MAX, SECTIONS_MAX, SNIPPET_BYTES, SOURCES_MAX, type DocumentStateDto, type DocumentStatePage, type FetchInput, type KbDocument, type KbHit, type KbSection, type PutResult, type SearchInput, type SourceDto } from './contract.js';
import { pgIndexText, searchTerms } from './query.js';
import { addDocumentImpacts, dropDocumentImpacts } from './impacts.js';
import { rankSections } from './rank.js';
import { visibleSources } from './visible.js';
import { kbError, revalidateTurn } from './revalidate.js';
import { splitSections, titleOf } from './sections.js';

/** FTS5 index pages one merge step writes (~400 KB: tens of ms), and the steps one sync's merge may take. */
const MERGE_PAGES = 100;
const MERGE_STEPS_MAX = 10_000;

/** Documents one source may hold. */
export const SOURCE_DOCUMENTS_MAX = 20_000;

/** The sync listing's order: by path (unique in a source), so pages never repeat or skip a document. */
const DOCUMENT_ORDER: Ordering = { collection: 'kb_documents', keys: [{ column: 'path', field: 'path', dir: 'ASC', type: 'text' }] };

interface SourceRow {
  id: string;
  name: string;
  kind: 'folder' | 'upload';
  created_at: number;
  synced_at: number | null;
}


export class Knowledge {
  constructor(private readonly deps: DomainDeps) {}

  private async source(sql: Sql, id: unknown): Promise<SourceRow> {
    const row = await sql.get<SourceRow>('SELECT id, name, kind, created_at, synced_at FROM kb_sources WHERE id = ?', [idOf(id, 'source')]);
    if (!row) throw new AppError('not_found', 'source not found');
    return row;
  }

  private async dto(sql: Sql, r: SourceRow): Promise<SourceDto> {
    const scopes = await sql.all<{ scope: string }>('SELECT scope FROM kb_source_scopes WHERE source_id = ? ORDER BY scope', [r.id]);
    const c = await sql.get<{ d: number; s: number | null }>('SELECT COUNT(*) AS d, SUM(section_count) AS s FROM kb_documents WHERE source_id = ?', [r.id]);
    return { id: r.id, name: r.name, kind: r.kind, scopes: scopes.map((s) => s.scope), documents: Number(c?.d ?? 0), sections: Number(c?.s ?? 0), createdAt: iso(Number(r.created_at)), syncedAt: r.synced_at === null ? null : iso(Number(r.synced_at)) };
  }

  /** Security invariant: only the Human owner adds sources and decides which scopes read them. */
  async createSource(actor: Actor, input: { name: string; kind: 'folder' | 'upload'; scopes: string[] }): Promise<SourceDto> {
    requireOwner(actor, 'add knowledge sources');
    checkText(input.name, KB_BOUNDS.name);
    return this.deps.store.tx(async (sql) => {
      const n = await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM kb_sources');
      if (Number(n?.n ?? 0) >= SOURCES_MAX) throw new AppError('validation_failed', `the knowledge base holds at most ${SOURCES_MAX} sources`);
      const row: SourceRow = { id: await this.deps.ids.next(sql, 'kbs'), name: input.name, kind: input.kind, created_at: this.deps.clock.now(), synced_at: null };
      await sql.run('INSERT INTO kb_sources (id, name, kind, created_at, synced_at) VALUES (?, ?, ?, ?, NULL)', [row.id, row.name, row.kind, row.created_at]);
      for (const s of new Set(input.scopes)) await sql.run('INSERT INTO kb_source_scopes (source_id, scope) VALUES (?, ?)', [row.id, s]);
      return this.dto(sql, row);
    });
  }

  async listSources(actor: Actor): Promise<SourceDto[]> {
    requireOwner(actor, 'list knowledge sources');
    return this.deps.store.tx(async (sql) => {
      const rows = await sql.all<SourceRow>('SELECT id, name, kind, created_at, synced_at FROM kb_sources ORDER BY created_at, id LIMIT ?', [SOURCES_MAX]);
      const out: SourceDto[] = [];
      for (const r of rows) out.push(await this.dto(sql, r));
      return out;
    });
  }

  /** What the server holds of a source (path, hash, mtime), so a sync uploads only what changed: keyset pages by path. */
  async documents(actor: Actor, sourceId: string, cursor?: string): Promise<DocumentStatePage> {
    requireOwner(actor, 'read knowledge sources');
    return this.deps.store.tx(async (sql) => {
      await this.source(sql, sourceId);
      const q = { ordering: DOCUMENT_ORDER, columns: 'id, path, hash, mtime', from: 'kb_documents', where: 'source_id = ?', params: [sourceId], filter: { sourceId }, limit: MAX_LIMIT, cursor };
      return listPage(sql, this.deps.cursors, 'documents', q, (rows: DocumentStateDto[]) => rows.map((r) => ({ id: r.id, path: r.path, hash: r.hash, mtime: Number(r.mtime) })));
    });
  }

  /** Adds or replaces one document; the same hash only moves its mtime (no re-index). */
  async putDocument(actor: Actor, sourceId: string, input: { path: string; title?: string; hash: string; mtime: number; content: string }): Promise<PutResult> {
    requireOwner(actor, 'change knowledge sources');
    checkText(input.path, KB_BOUNDS.path);
    if (input.title !== undefined) checkText(input.title, KB_BOUNDS.title);
    checkText(input.content, KB_BOUNDS.content);
    return this.deps.store.tx(async (sql) => {
      await this.source(sql, sourceId);
      const old = await sql.get<{ id: string; hash: string; section_count: number }>('SELECT id, hash, section_count FROM kb_documents WHERE source_id = ? AND path = ?', [sourceId, input.path]);
      if (old && old.hash === input.hash) {
        await sql.run('UPDATE kb_documents SET mtime = ? WHERE id = ?', [input.mtime, old.id]);
        return { documentId: old.id, sections: Number(old.section_count), changed: false };
      }
      if (!old) {
        const n = await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM kb_documents WHERE source_id = ?', [sourceId]);
        if (Number(n?.n ?? 0) >= SOURCE_DOCUMENTS_MAX) throw new AppError('payload_too_large', `a source holds at most ${SOURCE_DOCUMENTS_MAX} documents`);
      }
      const sections = splitSections(input.content);
      if (sections.length > SECTIONS_MAX) throw new AppError('validation_failed', `content splits into ${sections.length} sections; the limit is ${SECTIONS_MAX} (fewer headings, or a smaller file)`);
      const title = input.title || titleOf(input.path, sections);
      const id = old?.id ?? (await this.deps.ids.next(sql, 'kbd'));
      const pg = this.deps.store.dialect === 'postgres';
      if (old) {
        if (!pg) await dropDocumentImpacts(sql, id);
        await sql.run('DELETE FROM kb_sections WHERE document_id = ?', [id]);
        await sql.run('UPDATE kb_documents SET title = ?, hash = ?, mtime = ?, section_count = ? WHERE id = ?', [title, input.hash, input.mtime, sections.length, id]);
      } else {
        await sql.run('INSERT INTO kb_documents (id, source_id, path, title, hash, mtime, section_count) VALUES (?, ?, ?, ?, ?, ?, ?)', [id, sourceId, input.path, title, input.hash, input.mtime, sections.length]);
      }
      for (const [i, s] of sections.entries()) {
        if (pg) await sql.run("INSERT INTO kb_sections (document_id, position, heading, body, tsv) VALUES (?, ?, ?, ?, to_tsvector('simple', ?))", [id, i, s.heading, s.body, pgIndexText(s.heading, s.body)]);
        else await sql.run('INSERT INTO kb_sections (document_id, position, heading, body) VALUES (?, ?, ?, ?)', [id, i, s.heading, s.body]);
      }
      if (!pg) await addDocumentImpacts(sql, id);
      return { documentId: id, sections: sections.length, changed: true };
    });
  }

  async removeDocument(actor: Actor, sourceId: string, path: string): Promise<{ removed: boolean }> {
    requireOwner(actor, 'change knowledge sources');
    return this.deps.store.tx(async (sql) => {
      await this.source(sql, sourceId);
      const d = await sql.get<{ id: string }>('SELECT id FROM kb_documents WHERE source_id = ? AND path = ?', [sourceId, path]);
      if (!d) return { removed: false };
      if (this.deps.store.dialect === 'sqlite') await dropDocumentImpacts(sql, d.id);
      await sql.run('DELETE FROM kb_sections WHERE document_id = ?', [d.id]);
      await sql.run('DELETE FROM kb_documents WHERE id = ?', [d.id]);
      return { removed: true };
    });
  }

  /**
   * Ends a sync. SQLite: the sync's writes left the FTS5 index in many segments (one per document written, merged only
   * partly) and every search reads each of them, so they are merged into one, a bounded step per transaction.
   */
  async markSynced(actor: Actor, sourceId: string): Promise<SourceDto> {
    requireOwner(actor, 'sync knowledge sources');
    const dto = await this.deps.store.tx(async (sql) => {
      const r = await this.source(sql, sourceId);
      await sql.run('UPDATE kb_sources SET synced_at = ? WHERE id = ?', [this.deps.clock.now(), r.id]);
      return this.dto(sql, { ...r, synced_at: this.deps.clock.now() });
    });
    if (this.deps.store.dialect === 'sqlite') await this.mergeIndex();
    return dto;
  }

  /** FTS5 'merge' with a negative page count: ~MERGE_PAGES pages toward one segment per step; other requests run between steps. */
  private async mergeIndex(): Promise<void> {
    for (let step = 0; step < MERGE_STEPS_MAX; step++) {
      const worked = await this.deps.store.tx(async (sql) => {
        const before = Number((await sql.get<{ n: number }>('SELECT total_changes() AS n'))!.n);
        await sql.run("INSERT INTO kb_fts(kb_fts, rank) VALUES('merge', ?)", [-MERGE_PAGES]);
        // FTS5 documents it: a change count that grew by 2 or more means the step merged something.
        return Number((await sql.get<{ n: number }>('SELECT total_changes() AS n'))!.n) - before >= 2;
      });
      if (!worked) return;
    }
  }

  /** Ranked sections of the sources the turn's scopes may read (bm25 on SQLite, ts_rank on PostgreSQL). */
  async search(actor: Actor, input: SearchInput): Promise<{ hits: KbHit[] }> {
    const terms = searchTerms(input.query);
    if (terms.length === 0) throw kbError('request_validation', 'validation_failed', 'query has no words to search', 'use letters or digits');
    const limit = input.limit ?? SEARCH_DEFAULT_LIMIT;
    return this.deps.store.tx(async (sql) => {
      const scopes = await revalidateTurn(sql, this.deps, actor, input);
      const rows = await rankSections(this.deps.store.dialect, sql, terms, scopes, limit);
      const hits: KbHit[] = rows.map((r) => ({
        documentId: r.document_id,
        section: Number(r.position),
        title: clipText(r.title, HIT_TEXT_BYTES),
        heading: clipText(r.heading, HIT_TEXT_BYTES),
        snippet: clipText(r.snippet, SNIPPET_BYTES),
        score: Math.round(Math.abs(Number(r.score)) * 1000) / 1000,
      }));
      // Ranked best first, so a byte cut keeps the best hits.
      return { hits: hits.slice(0, fittingPrefix(hits, HITS_BYTES_MAX)) };
    });
  }

  /** Sections from `section` on while their JSON fits FETCH_PAGE_BYTES (one at least); nextSection continues. */
  async fetch(actor: Actor, input: FetchInput): Promise<KbDocument> {
    if (!ID_RE.test(input.documentId)) throw kbError('request_validation', 'validation_failed', 'documentId is not a document id', 'use a documentId from kb_search');
    return this.deps.store.tx(async (sql) => {
      const scopes = await revalidateTurn(sql, this.deps, actor, input);
      // Security invariant: a document outside the turn's scopes answers exactly like a missing one.
      const doc = await sql.get<{ id: string; title: string; section_count: number }>(
        `SELECT id, title, section_count FROM kb_documents WHERE id = ? AND source_id IN (${visibleSources(scopes.length)})`,
        [input.documentId, ...scopes],
      );
      if (!doc) throw kbError('upstream', 'not_found', 'document not found', 'use a documentId from kb_search');
      const from = input.section ?? 0;
      const count = Number(doc.section_count);
      if (from >= count) throw kbError('request_validation', 'validation_failed', `section must be below ${count}`);
      const rows = await sql.all<{ position: number; heading: string; body: string }>('SELECT position, heading, body FROM kb_sections WHERE document_id = ? AND position >= ? ORDER BY position LIMIT 64', [doc.id, from]);
      // Stored rows are clipped to their bounds (a net for rows written by another writer), then cut to the page budget.
      const all: KbSection[] = rows.map((r) => ({ section: Number(r.position), heading: clipText(r.heading, HEADING_BYTES_MAX), text: clipText(r.body, SECTION_BYTES_MAX) }));
      const sections = all.slice(0, fittingPrefix(all, FETCH_PAGE_BYTES));
      const out: KbDocument = { documentId: doc.id, title: clipText(doc.title, KB_BOUNDS.title.bytes), sectionCount: count, sections };
      const next = from + sections.length;
      if (next < count) out.nextSection = next;
      return out;
    });
  }
}
