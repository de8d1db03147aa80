// Owns the `knowledge` domain module: its client, server service and routes, and schema steps (no Exec actions: agents reach it through kb_search/kb_fetch).
import { defineDomain } from '../module.js';
import { knowledgeClient } from './client.js';
import { MIGRATIONS } from './migrations.js';
import { ROUTES } from './routes.js';
import { Knowledge } from './service.js';

export const knowledgeDomain = defineDomain({
  name: 'knowledge',
  key: 'knowledge',
  client: knowledgeClient,
  service: (deps) => new Knowledge(deps),
  routes: ROUTES,
  migrations: MIGRATIONS,
});
