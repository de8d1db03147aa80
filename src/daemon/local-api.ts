// Owns the local API server: one hardened node:http listener on 127.0.0.1 dispatching the route table; typed 404/405/500.
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { sendJson } from '../wire/http/guard.js';
import { createHardenedServer, type ListenerLimits } from '../wire/http/listener.js';
import type { Router } from '../wire/http/router.js';

export function createLocalApiServer(router: Router, log: Logger, limits: ListenerLimits = {}): Server {
  return createHardenedServer((req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const m = router.match(req.method ?? 'GET', path);
    if (m.kind === 'not_found') return sendJson(res, 404, { ok: false, error: { code: 'not_found', message: 'no such route' } });
    if (m.kind === 'method_not_allowed') {
      res.setHeader('allow', m.allow.join(', '));
      return sendJson(res, 405, { ok: false, error: { code: 'invalid_input', message: 'method not allowed' } });
    }
    let p: void | Promise<void>;
    try {
      p = m.handler(req, res, m.params);
    } catch (e) {
      return fail(e);
    }
    if (p) p.catch(fail);
    function fail(e: unknown) {
      log.error({ err: e instanceof Error ? e.message : String(e), path }, 'route failed');
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: { code: 'internal', message: 'internal error' } });
      else res.destroy();
    }
  }, limits);
}
