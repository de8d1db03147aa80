// Owns the extension server routes: installations (owner/admin), the runtime snapshot, and `/runtime/ext` forwarding.
import type { DomainRoute } from '../../server/http/route.js';
import { CallBody, InstallBody, StatusBody } from './contract.js';
import type { Extensions } from './service.js';

export const EXT_ROOT = '/v1/runtime/ext';

export const ROUTES: readonly DomainRoute<Extensions>[] = [
  { method: 'POST', path: '/v1/extensions/installations', body: InstallBody, handle: (c, s) => s.install(c.actor, c.body) },
  { method: 'GET', path: '/v1/extensions/installations', handle: async (c, s) => ({ installations: await s.installations(c.actor) }) },
  { method: 'POST', path: '/v1/extensions/installations/{name}/status', body: StatusBody, handle: (c, s) => s.setStatus(c.actor, c.params.name!, c.body.status) },
  // Unauthenticated by member: the provider signs each delivery with the installation's webhook secret (checked first).
  { method: 'POST', path: '/v1/extensions/{name}/webhook', handle: async () => ({}), webhook: (c, s) => s.webhook(c.params.name!, c.req) },
  { method: 'GET', path: `${EXT_ROOT}/catalog`, handle: (c, s) => s.snapshot(c.actor) },
  { method: 'POST', path: EXT_ROOT, body: CallBody, handle: (c, s) => s.call(c.actor, c.body) },
];
