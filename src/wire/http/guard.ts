// Owns transport guards shared by every route: loopback Host/Origin checks, bearer parsing, content type, the generic 403.
import type { IncomingMessage, ServerResponse } from 'node:http';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

function hostname(hostPort: string): string {
  if (hostPort.startsWith('[')) {
    const end = hostPort.indexOf(']');
    return end < 0 ? hostPort : hostPort.slice(0, end + 1);
  }
  const i = hostPort.lastIndexOf(':');
  return (i < 0 ? hostPort : hostPort.slice(0, i)).toLowerCase();
}

/** True when the Host header names a loopback address (DNS-rebinding defence). A missing Host is refused. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  return LOOPBACK_HOSTS.has(hostname(host.trim()));
}

/** True when there is no Origin (non-browser client) or it is a loopback http(s) origin. */
export function isAllowedOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    const u = new URL(origin);
    return (u.protocol === 'http:' || u.protocol === 'https:') && LOOPBACK_HOSTS.has(u.hostname.toLowerCase());
  } catch {
    return false;
  }
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
  res.writeHead(status, { 'content-type': contentType, 'content-length': buf.length, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(buf);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  sendRaw(res, status, JSON.stringify(value));
}
