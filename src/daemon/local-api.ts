// Owns the local API server: one node:http server on 127.0.0.1 dispatching the route table; typed not_found/invalid_input/internal.
import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import { AppError, errorBody } from '../shared/errors.js';
import { sendJson } from '../wire/http/guard.js';
import type { Router } from '../wire/http/router.js';

export function createLocalApiServer(router: Router, log: Logger): Server {
  const server = createServer({ keepAliveTimeout: 5000, headersTimeout: 10_000, requestTimeout: 0 }, (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const m = router.match(req.method ?? 'GET', path);
    // Statuses come only from the code table (an unknown method is invalid_input with Allow, as on the server).
    const refuse = (e: AppError) => sendJson(res, e.status, { ok: false, error: errorBody(e) });
    if (m.kind === 'not_found') return refuse(new AppError('not_found', 'no such route'));
    if (m.kind === 'method_not_allowed') {
      res.setHeader('allow', m.allow.join(', '));
      return refuse(new AppError('invalid_input', `method not allowed; use ${m.allow.join(', ')}`));
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
      if (!res.headersSent) refuse(new AppError('internal', 'internal error'));
      else res.destroy();
    }
  });
  // Clients that never finish headers are dropped; body deadlines are enforced per route.
  server.on('clientError', (_e, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });
  return server;
}
