// Owns the `knowledge` domain module: its server calls (client and routes derive from them), service and schema steps (no Exec actions: agents reach it through kb_search/kb_fetch).
import { defineDomain } from '../module.js';
import { clientOf } from '../../server-client/derive.js';
import { bindRoutes } from '../../server/http/route.js';
import { KNOWLEDGE } from './contract.js';
import { MIGRATIONS } from './migrations.js';
import { Knowledge } from './service.js';

export const knowledgeDomain = defineDomain({
  name: 'knowledge',
  key: 'knowledge',
  client: (send) => clientOf(send, KNOWLEDGE),
  service: (deps) => new Knowledge(deps),
  routes: bindRoutes<typeof KNOWLEDGE, Knowledge>(
    KNOWLEDGE,
    {
      listSources: async (s, a) => ({ sources: await s.listSources(a) }),
      documents: (s, a, i) => s.documents(a, i.sourceId, i.cursor),
      putDocument: (s, a, { sourceId, ...doc }) => s.putDocument(a, sourceId, doc),
      removeDocument: (s, a, i) => s.removeDocument(a, i.sourceId, i.path),
      markSynced: (s, a, i) => s.markSynced(a, i.sourceId),
    },
    { putDocument: { maxBody: 4 * 1024 * 1024 } },
  ),
  migrations: MIGRATIONS,
});
