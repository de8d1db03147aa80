// Owns the `knowledge` domain contract: sources with scope ACLs, documents split into sections, search/fetch requests bound to a Human turn, every bound, and its server calls.
import { Type, type Static } from '@sinclair/typebox';
import type { TextBound } from '../../shared/bounds.js';
import { endpoints } from '../../shared/endpoint.js';
import { targetPattern } from '../../shared/target.js';

/** Stored text fields, in characters and serialized (JSON, UTF-8) bytes. A folder source's name is its absolute path. */
export const KB_BOUNDS = {
  name: { field: 'name', min: 1, chars: 1000, bytes: 2000 },
  path: { field: 'path', min: 1, chars: 1000, bytes: 2000 },
  title: { field: 'title', min: 0, chars: 300, bytes: 1200 },
  content: { field: 'content', min: 0, chars: 1_000_000, bytes: 2_000_000 },
} as const satisfies Record<string, TextBound>;
export const SOURCES_MAX = 1000;
export const SCOPES_MAX = 32;
/** Sections one document may split into (a document with more is refused). */
export const SECTIONS_MAX = 5000;
/** A section's body and heading in serialized bytes: a section item stays far under ITEM_BYTES_MAX. */
export const SECTION_BYTES_MAX = 8 * 1024;
export const HEADING_BYTES_MAX = 1200;
/** Fetch returns sections from the one asked for while their JSON array fits this (one at least). */
export const FETCH_PAGE_BYTES = 16 * 1024;
/** Search hits: title, heading and snippet clipped to these bytes each; the hits array fits HITS_BYTES_MAX. */
export const HIT_TEXT_BYTES = 400;
export const SNIPPET_BYTES = 600;
export const HITS_BYTES_MAX = 16 * 1024;
export const QUERY_MAX = 512;
export const SEARCH_MAX_LIMIT = 20;
export const SEARCH_DEFAULT_LIMIT = 5;
export const HASH_RE = /^[0-9a-f]{64}$/;

/** Outer failure stages of a knowledge call (spec §Failure Model). */
export const KB_STAGES = ['route', 'request_validation', 'target_scope_resolution', 'upstream'] as const;
export type KbStage = (typeof KB_STAGES)[number];

/** A scope a source may be read from: the whole workspace, or one exact target (a channel scope also covers its threads). */
// The one target grammar (channel/target.ts): generated ids are base64url, so a hand-copied id class without `-` refused about one DM in five.
export const SCOPE_PATTERN = `^(workspace|${targetPattern(['channel', 'dm', 'thread', 'task']).slice(2, -2)})$`;
export const Scope = Type.String({ pattern: SCOPE_PATTERN, maxLength: 300 });

const strict = { additionalProperties: false } as const;
export const CreateSourceBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: KB_BOUNDS.name.chars }), kind: Type.Union([Type.Literal('folder'), Type.Literal('upload')]), scopes: Type.Array(Scope, { minItems: 1, maxItems: SCOPES_MAX }) }, strict);
export const PutDocumentBody = Type.Object(
  {
    path: Type.String({ minLength: 1, maxLength: KB_BOUNDS.path.chars }),
    title: Type.Optional(Type.String({ maxLength: KB_BOUNDS.title.chars })),
    hash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    mtime: Type.Integer({ minimum: 0 }),
    content: Type.String({ maxLength: KB_BOUNDS.content.chars }),
  },
  strict,
);
export const RemoveDocumentBody = Type.Object({ path: Type.String({ minLength: 1, maxLength: KB_BOUNDS.path.chars }) }, strict);

/** What every knowledge call forwards from session metadata: opaque to the daemon, revalidated by the server. */
const TurnFields = {
  serverId: Type.String({ minLength: 1, maxLength: 100 }),
  target: Type.String({ minLength: 1, maxLength: 300 }),
  targetType: Type.String({ minLength: 1, maxLength: 16 }),
  messageId: Type.String({ minLength: 1, maxLength: 100 }),
};
export const SearchBody = Type.Object({ ...TurnFields, query: Type.String({ minLength: 1, maxLength: QUERY_MAX }), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SEARCH_MAX_LIMIT })) }, strict);
export const FetchBody = Type.Object({ ...TurnFields, documentId: Type.String({ minLength: 1, maxLength: 100 }), section: Type.Optional(Type.Integer({ minimum: 0, maximum: SECTIONS_MAX - 1 })) }, strict);
export type SearchInput = Static<typeof SearchBody>;
export type FetchInput = Static<typeof FetchBody>;
export type TurnBinding = Pick<SearchInput, 'serverId' | 'target' | 'targetType' | 'messageId'>;

export interface SourceDto {
  id: string;
  name: string;
  kind: 'folder' | 'upload';
  scopes: string[];
  documents: number;
  sections: number;
  createdAt: string;
  syncedAt: string | null;
}
export interface DocumentStateDto {
  id: string;
  path: string;
  hash: string;
  mtime: number;
}
/** One page of a source's documents, by path; follow nextCursor while hasMore. */
export interface DocumentStatePage {
  documents: DocumentStateDto[];
  hasMore: boolean;
  nextCursor?: string;
}
export interface PutResult {
  documentId: string;
  sections: number;
  changed: boolean;
}
export interface KbHit {
  documentId: string;
  section: number;
  title: string;
  heading: string;
  snippet: string;
  score: number;
}
export interface KbSection {
  section: number;
  heading: string;
  text: string;
}
export interface KbDocument {
  documentId: string;
  title: string;
  sections: KbSection[];
  sectionCount: number;
  nextSection?: number;
}

const SOURCE = '/v1/knowledge/sources/{sourceId}';
/** The knowledge server calls: owner source management and document sync, and turn-bound search and fetch (revalidated per call). */
export const KNOWLEDGE = endpoints({
  createSource: { method: 'POST', path: '/v1/knowledge/sources', body: CreateSourceBody, output: Type.Unsafe<SourceDto>() },
  listSources: { method: 'GET', path: '/v1/knowledge/sources', output: Type.Unsafe<{ sources: SourceDto[] }>() },
  /** One page by path; pass the previous page's nextCursor. */
  documents: { method: 'GET', path: `${SOURCE}/documents`, query: Type.Object({ cursor: Type.Optional(Type.String()) }), output: Type.Unsafe<DocumentStatePage>() },
  putDocument: { method: 'POST', path: `${SOURCE}/documents`, body: PutDocumentBody, output: Type.Unsafe<PutResult>() },
  removeDocument: { method: 'POST', path: `${SOURCE}/remove`, body: RemoveDocumentBody, output: Type.Unsafe<{ removed: boolean }>() },
  markSynced: { method: 'POST', path: `${SOURCE}/synced`, output: Type.Unsafe<SourceDto>() },
  search: { method: 'POST', path: '/v1/knowledge/search', body: SearchBody, output: Type.Unsafe<{ hits: KbHit[] }>() },
  fetch: { method: 'POST', path: '/v1/knowledge/fetch', body: FetchBody, output: Type.Unsafe<KbDocument>() },
});
