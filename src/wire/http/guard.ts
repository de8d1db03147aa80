// Owns transport guards shared by every route: loopback Host/Origin checks, bearer parsing, content type, the generic 403.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, errorBody } from '../../shared/errors.js';
import { bodyPending, closeWithoutDraining } from './listener.js';

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** A loopback host name: `localhost`, a dotted-decimal 127.0.0.0/8 address (no leading zeros), or `[::1]`. */
function isLoopbackName(h: string): boolean {
  if (h.toLowerCase() === 'localhost' || h === '[::1]') return true;
  const m = IPV4.exec(h);
  return !!m && m[1] === '127' && m.slice(2).every((o) => (o === '0' || !o.startsWith('0')) && Number(o) <= 255);
}

/**
 * Strict Host parse (DNS-rebinding defence): a loopback name or address and an optional numeric port, nothing else —
 * `127.0.0.1:PORT.evil.com`, `localhost:80@evil.com`, `localhost.` and a missing Host are refused.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const m = /^(\[[^\]]*\]|[^:[\]]*)(?::(\d{1,5}))?$/.exec(host);
  if (!m) return false;
  if (m[2] !== undefined && Number(m[2]) > 65535) return false;
  return isLoopbackName(m[1]!);
}

/** True when there is no Origin (non-browser client) or it is exactly `http(s)://` + a strict loopback Host. */
export function isAllowedOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  const m = /^https?:\/\/(.*)$/i.exec(origin);
  return !!m && isLoopbackHost(m[1]);
}

/** Security invariant: requests whose Host or Origin is not loopback are refused before anything else. */
export function loopbackRequest(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  return isLoopbackHost(req.headers.host) && isAllowedOrigin(Array.isArray(origin) ? origin[0] : origin);
}

/** The bearer secret from `Authorization: Bearer X`, or undefined. Never log the result. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer +([A-Za-z0-9._~+/=-]{1,512})$/.exec(h);
  return m ? m[1] : undefined;
}

/** POST bodies must be JSON, so a web page cannot reach a route with a CORS "simple" request. */
export function isJsonContentType(req: IncomingMessage): boolean {
  const ct = req.headers['content-type'];
  if (!ct) return false;
  return ct.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * The one generic denial. Security invariant: identical bytes for every authentication or binding
 * failure (missing, unknown, expired, revoked, wrong scope/server/agent), and no WWW-Authenticate challenge.
 */
export const DENIED_BODY = Buffer.from('{"ok":false,"error":{"code":"denied","message":"forbidden"}}');

export function sendDenied(res: ServerResponse): void {
  sendRaw(res, 403, DENIED_BODY);
}

export function sendRaw(res: ServerResponse, status: number, body: Buffer | string, contentType = 'application/json'): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  // Security invariant: an answer sent before the body was read closes the connection without draining the body.
  if (res.req && bodyPending(res.req)) closeWithoutDraining(res);
  res.writeHead(status, { 'content-type': contentType, 'content-length': buf.length, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(buf);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  sendRaw(res, status, JSON.stringify(value));
}

/** Any failure as its closed error envelope: an AppError keeps its code and status, anything else is a bare `internal`. */
export function sendError(res: ServerResponse, e: unknown): void {
  const err = e instanceof AppError ? e : new AppError('internal', 'internal error');
  sendJson(res, err.status, { ok: false, error: errorBody(err) });
}
