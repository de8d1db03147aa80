// Owns the `knowledge` server routes: owner source management and document sync, and turn-bound search and fetch (revalidated per call).
import type { DomainRoute } from '../../server/http/route.js';
import { CreateSourceBody, FetchBody, PutDocumentBody, RemoveDocumentBody, SearchBody } from './contract.js';
import type { Knowledge } from './service.js';

export const ROUTES: readonly DomainRoute<Knowledge>[] = [
  { method: 'POST', path: '/v1/knowledge/sources', body: CreateSourceBody, handle: (c, s) => s.createSource(c.actor, c.body) },
  { method: 'GET', path: '/v1/knowledge/sources', handle: async (c, s) => ({ sources: await s.listSources(c.actor) }) },
  { method: 'GET', path: '/v1/knowledge/sources/{sourceId}/documents', query: ['cursor'], handle: (c, s) => s.documents(c.actor, c.params.sourceId!, c.query.cursor) },
  { method: 'POST', path: '/v1/knowledge/sources/{sourceId}/documents', body: PutDocumentBody, maxBody: 4 * 1024 * 1024, handle: (c, s) => s.putDocument(c.actor, c.params.sourceId!, c.body) },
  { method: 'POST', path: '/v1/knowledge/sources/{sourceId}/remove', body: RemoveDocumentBody, handle: (c, s) => s.removeDocument(c.actor, c.params.sourceId!, c.body.path) },
  { method: 'POST', path: '/v1/knowledge/sources/{sourceId}/synced', handle: (c, s) => s.markSynced(c.actor, c.params.sourceId!) },
  { method: 'POST', path: '/v1/knowledge/search', body: SearchBody, handle: (c, s) => s.search(c.actor, c.body) },
  { method: 'POST', path: '/v1/knowledge/fetch', body: FetchBody, handle: (c, s) => s.fetch(c.actor, c.body) },
];
