// Owns which Host/Origin names the server answers: loopback always, plus an explicit allowlist when it is reached by name.
import type { IncomingMessage } from 'node:http';
import { AppError } from '../../shared/errors.js';
import { isAllowedOrigin, isLoopbackHost } from '../../wire/http/guard.js';

/** A DNS name or IPv4 address as it may appear in a Host header (lower case, no port). */
const NAME_RE = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
/** Bind addresses that keep the server on this machine. */
export const LOOPBACK_BIND = new Set(['127.0.0.1', 'localhost', '::1']);

/** Validates `--allowed-host` names; refuses wildcards, ports, schemes and empty lists where one is required. */
export function parseAllowedHosts(names: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const raw of names) {
    const n = raw.trim().toLowerCase();
    if (!NAME_RE.test(n)) throw new AppError('invalid_input', `allowed host ${JSON.stringify(raw.slice(0, 100))} must be a plain DNS name or IPv4 address (no scheme, port or wildcard)`);
    out.add(n);
  }
  return out;
}

/** Whether a peer address is on this machine (127.0.0.0/8, ::1, or IPv4-mapped loopback). */
export function loopbackPeer(addr: string | undefined): boolean {
  if (!addr) return false;
  const v4 = addr.startsWith('::ffff:') ? addr.slice(7) : addr;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * Security invariant: behind a TLS-terminating proxy, a request from another machine is answered (beyond the public
 * /v1/server and /v1/health) only when the proxy says its client spoke https, so no credential or invite code is ever
 * taken, nor a credential handed out, over plain http off this machine.
 */
export function forwardedHttps(req: IncomingMessage): boolean {
  if (loopbackPeer(req.socket.remoteAddress)) return true;
  const p = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(p) ? p[0] : p)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
}

/** The lower-cased name of a strict `name[:port]` Host value, or undefined when it is not one. */
function hostName(host: string | undefined): string | undefined {
  if (!host) return undefined;
  const m = /^([A-Za-z0-9.-]{1,253})(?::(\d{1,5}))?$/.exec(host);
  if (!m || (m[2] !== undefined && Number(m[2]) > 65535)) return undefined;
  return m[1]!.toLowerCase();
}

/**
 * Security invariant (DNS rebinding, Host spoofing): a request is answered only when its Host is loopback or exactly a
 * name on the allowlist, and its Origin (if any) is loopback or an allowed name; before routing or auth.
 */
export function hostAllowed(req: IncomingMessage, allowed: ReadonlySet<string>): boolean {
  const host = req.headers.host;
  const okHost = isLoopbackHost(host) || (allowed.size > 0 && allowed.has(hostName(host) ?? ''));
  if (!okHost) return false;
  const o = Array.isArray(req.headers.origin) ? req.headers.origin[0] : req.headers.origin;
  if (o === undefined || isAllowedOrigin(o)) return true;
  const m = /^https?:\/\/(.*)$/i.exec(o);
  return !!m && allowed.has(hostName(m[1]) ?? '');
}
