// Owns the console's request rules: loopback, no bearer, same-origin, the session cookie, CSRF on mutations, security headers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonContentType, loopbackRequest } from '../wire/http/guard.js';
import { ConsoleAuth, SESSION_TTL_MS, type ConsoleSession } from './sessions.js';

/** Strict CSP: scripts, styles and connections from this origin only; no inline script, no framing. */
export const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Every console answer carries these. */
export function securityHeaders(res: ServerResponse): void {
  res.setHeader('content-security-policy', CSP);
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('referrer-policy', 'no-referrer');
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('cross-origin-opener-policy', 'same-origin');
  res.setHeader('cross-origin-resource-policy', 'same-origin');
  res.setHeader('cache-control', 'no-store');
}

/** The cookie name carries the port: cookies are not isolated by port, so two daemons on one host never overwrite each other's. */
export function cookieName(port: number): string {
  return `agentteam_console_${port}`;
}

export function sessionCookie(port: number, sessionId: string): string {
  return `${cookieName(port)}=${sessionId}; Path=/console; HttpOnly; SameSite=Strict; Max-Age=${SESSION_TTL_MS / 1000}`;
}

export function clearedCookie(port: number): string {
  return `${cookieName(port)}=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0`;
}

/** The session id from the Cookie header (one value of our name), or undefined. */
export function sessionIdOf(req: IncomingMessage, port: number): string | undefined {
  const raw = req.headers.cookie;
  if (!raw) return undefined;
  const name = cookieName(port);
  for (const part of raw.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/** This daemon's own origin as the browser names it (Host is loopback-checked before this is used). */
function ownOrigin(req: IncomingMessage): string {
  return `http://${req.headers.host ?? ''}`;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export type Refusal = 'loopback' | 'bearer' | 'origin' | 'session' | 'csrf' | 'content_type';

/**
 * The checks before any console handler runs, in order; the first failing rule's class, or the session.
 * - Host (and any Origin) must be loopback: the daemon's shared DNS-rebinding guard.
 * - No Authorization header at all: console routes never accept a bearer (owner or runtime MCP/Exec).
 * - A present Origin must be exactly this origin; a present Sec-Fetch-Site must be same-origin (or `none` on a page
 *   navigation such as the login link; the login link also from another site, as a top-level document navigation
 *   only: `agentteam console` opens it through a private file:// page, whose navigations are cross-site).
 * - The session cookie must name a live session.
 * - Mutations (not GET/HEAD) must also carry Origin (this origin), JSON content and the session's X-CSRF-Token.
 */
export function checkConsole(req: IncomingMessage, auth: ConsoleAuth, port: number, opts: { page?: boolean; anonymous?: boolean; login?: boolean } = {}): { ok: true; session?: ConsoleSession; sessionId?: string } | { ok: false; why: Refusal } {
  if (!loopbackRequest(req)) return { ok: false, why: 'loopback' };
  if (req.headers.authorization !== undefined) return { ok: false, why: 'bearer' };
  const origin = header(req, 'origin');
  if (origin !== undefined && origin !== ownOrigin(req)) return { ok: false, why: 'origin' };
  const site = header(req, 'sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && !(opts.page && site === 'none') && !(opts.login && isDocumentNavigation(req))) return { ok: false, why: 'origin' };
  if (opts.anonymous) return { ok: true };
  const sessionId = sessionIdOf(req, port);
  const session = auth.session(sessionId);
  if (!session) return { ok: false, why: 'session' };
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') {
    if (origin === undefined) return { ok: false, why: 'origin' };
    if (!isJsonContentType(req)) return { ok: false, why: 'content_type' };
    if (!ConsoleAuth.csrfMatches(session, req.headers['x-csrf-token'])) return { ok: false, why: 'csrf' };
  }
  return { ok: true, session, sessionId: sessionId! };
}

/** A top-level document navigation (a link followed, a page sent on), never a fetch, frame, image or form post. */
export function isDocumentNavigation(req: IncomingMessage): boolean {
  return (req.method ?? 'GET') === 'GET' && header(req, 'sec-fetch-mode') === 'navigate' && header(req, 'sec-fetch-dest') === 'document';
}

/** Sent from another site's page (Sec-Fetch-Site cross-site or same-site): a redirect would not carry a Strict cookie. */
export function fromAnotherSite(req: IncomingMessage): boolean {
  const site = header(req, 'sec-fetch-site');
  return site === 'cross-site' || site === 'same-site';
}
