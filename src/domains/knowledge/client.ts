// Owns the daemon's `knowledge` client: `api.knowledge.*` over the server's knowledge routes.
import { qs, seg, type CallOptions, type Send } from '../../server-client/send.js';
import type { DocumentStatePage, FetchInput, KbDocument, KbHit, PutResult, SearchInput, SourceDto } from './contract.js';

export interface KnowledgeApi {
  createSource(input: { name: string; kind: 'folder' | 'upload'; scopes: string[] }, o?: CallOptions): Promise<SourceDto>;
  listSources(o?: CallOptions): Promise<{ sources: SourceDto[] }>;
  /** One page by path; pass the previous page's nextCursor. */
  documents(sourceId: string, cursor?: string, o?: CallOptions): Promise<DocumentStatePage>;
  putDocument(sourceId: string, input: { path: string; title?: string; hash: string; mtime: number; content: string }, o?: CallOptions): Promise<PutResult>;
  removeDocument(sourceId: string, path: string, o?: CallOptions): Promise<{ removed: boolean }>;
  markSynced(sourceId: string, o?: CallOptions): Promise<SourceDto>;
  search(input: SearchInput, o?: CallOptions): Promise<{ hits: KbHit[] }>;
  fetch(input: FetchInput, o?: CallOptions): Promise<KbDocument>;
}

export function knowledgeClient(send: Send): KnowledgeApi {
  const at = (id: string) => `/v1/knowledge/sources/${seg(id, 'sourceId')}`;
  return {
    createSource: (input, o) => send({ method: 'POST', path: '/v1/knowledge/sources', body: input, opts: o }),
    listSources: (o) => send({ method: 'GET', path: '/v1/knowledge/sources', opts: o }),
    documents: (id, cursor, o) => send({ method: 'GET', path: `${at(id)}/documents${qs({ cursor })}`, opts: o }),
    putDocument: (id, input, o) => send({ method: 'POST', path: `${at(id)}/documents`, body: input, opts: o }),
    removeDocument: (id, path, o) => send({ method: 'POST', path: `${at(id)}/remove`, body: { path }, opts: o }),
    markSynced: (id, o) => send({ method: 'POST', path: `${at(id)}/synced`, body: {}, opts: o }),
    search: (input, o) => send({ method: 'POST', path: '/v1/knowledge/search', body: input, opts: o }),
    fetch: (input, o) => send({ method: 'POST', path: '/v1/knowledge/fetch', body: input, opts: o }),
  };
}
