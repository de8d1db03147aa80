// Owns the auth-first guard of internal routes: loopback → bearer → scope + path binding → admission, before any body byte.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthGate, RequestLease, Scope, TokenInfo } from '../../authz/types.js';
import type { RateLimitedLogger } from '../../shared/log.js';
import { bearerToken, loopbackRequest, sendDenied, sendJson } from './guard.js';
import type { Params, RouteHandler } from './router.js';

export interface AuthedContext {
  /** Immutable token facts for this request. */
  readonly info: TokenInfo;
  readonly lease: RequestLease;
  readonly params: Params;
}

export type AuthedHandler = (req: IncomingMessage, res: ServerResponse, ctx: AuthedContext) => Promise<void> | void;

export const ADMISSION_REJECTED = { ok: false, error: { code: 'admission_rejected', message: 'too many concurrent requests; retry shortly' } } as const;

/**
 * Wraps an internal-route handler. Order (ARCHITECTURE §3): loopback Host/Origin → authenticate bearer (no body read)
 * → scope and {serverId, agentId} binding against the path → admission → handler. The lease is released when the
 * response finishes or the connection closes.
 */
export function authorized(gate: AuthGate, scope: Scope, diag: RateLimitedLogger, handler: AuthedHandler): RouteHandler {
  return async (req, res, params) => {
    // Security invariant: non-loopback Host/Origin is refused before the credential is even looked at.
    if (!loopbackRequest(req)) {
      diag.warn('origin', { route: scope }, 'refused non-loopback host or origin');
      return sendDenied(res);
    }
    const result = gate.authenticate(bearerToken(req));
    if (!result.ok) {
      diag.warn(`auth:${result.reason}`, { route: scope, reason: result.reason }, 'authentication failed');
      return sendDenied(res);
    }
    const info = result.info;
    // Security invariant: the credential's scope and {server, agent} binding must match the route, or the same generic 403.
    if (info.scope !== scope) {
      diag.warn('auth:scope', { route: scope, reason: 'scope', generationId: info.generationId }, 'authentication failed');
      return sendDenied(res);
    }
    if (info.authorization.serverId !== params.serverId || info.authorization.agentId !== params.agentId) {
      diag.warn('auth:binding', { route: scope, reason: 'binding', generationId: info.generationId }, 'authentication failed');
      return sendDenied(res);
    }
    const lease = gate.acquire(info);
    if (!lease) {
      res.setHeader('connection', 'close');
      return sendJson(res, 409, ADMISSION_REJECTED);
    }
    let released = false;
    const release = () => {
      if (!released) {
        released = true;
        lease.release();
      }
    };
    // 'close' follows every finished response and every dropped connection; a normal answer releases in `finally` below.
    res.once('close', release);
    try {
      await handler(req, res, { info, lease, params });
    } finally {
      if (res.writableEnded) release();
    }
  };
}
