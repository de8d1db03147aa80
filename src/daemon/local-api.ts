// Owns the local API server: one hardened node:http listener on 127.0.0.1 dispatching the route table; typed not_found/invalid_input/internal.
import type { Server, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { AppError, errorBody } from '../shared/errors.js';
import { sendJson } from '../wire/http/guard.js';
import { createHardenedServer, type ListenerLimits } from '../wire/http/listener.js';
import type { Router } from '../wire/http/router.js';

/** Statuses come only from the code table (an unknown method is invalid_input with Allow, as on the server). */
function refuse(res: ServerResponse, e: AppError): void {
  sendJson(res, e.status, { ok: false, error: errorBody(e) });
}

/** Optional per-request timing (the console's route-family chart). */
export interface RequestMetrics {
  begin(): number;
  end(path: string, startedAt: number): void;
}

const STARTED = Symbol('agentteam.started');
const PATH = Symbol('agentteam.path');
type Timed = ServerResponse & { [STARTED]?: number; [PATH]?: string };

export function createLocalApiServer(router: Router, log: Logger, limits: ListenerLimits = {}, metrics?: RequestMetrics): Server {
  // Per request: no closures are built unless a route fails (the failure path gets its own).
  const fail = (res: ServerResponse, path: string, e: unknown) => {
    log.error({ err: e instanceof Error ? e.message : String(e), path }, 'route failed');
    if (!res.headersSent) refuse(res, new AppError('internal', 'internal error'));
    else res.destroy();
  };
  const timedClose = metrics
    ? function (this: Timed) {
        metrics.end(this[PATH]!, this[STARTED]!);
      }
    : undefined;
  return createHardenedServer((req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (metrics) {
      // No per-request closure: the start and path ride on the response, one shared listener reads them.
      (res as Timed)[STARTED] = metrics.begin();
      (res as Timed)[PATH] = path;
      res.once('close', timedClose!);
    }
    const m = router.match(req.method ?? 'GET', path);
    if (m.kind === 'not_found') return refuse(res, new AppError('not_found', 'no such route'));
    if (m.kind === 'method_not_allowed') {
      res.setHeader('allow', m.allow.join(', '));
      return refuse(res, new AppError('invalid_input', `method not allowed; use ${m.allow.join(', ')}`));
    }
    let p: void | Promise<void>;
    try {
      p = m.handler(req, res, m.params);
    } catch (e) {
      return fail(res, path, e);
    }
    if (p) p.catch((e: unknown) => fail(res, path, e));
  }, limits);
}
