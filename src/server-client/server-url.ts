// Owns which AgentTeam Server URLs a daemon may send credentials to: https:// anywhere, plain http:// only to loopback.
import { AppError } from '../shared/errors.js';

/** A loopback host as URL.hostname spells it: localhost, 127.0.0.0/8, [::1]. */
export function isLoopbackHostname(h: string): boolean {
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Parses one server URL. Security invariant: server credentials are never sent over plain http to another machine, so
 * an http:// URL must name a loopback host; anything else must be https://.
 */
export function parseServerUrl(raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new AppError('invalid_input', 'the server URL is not a valid http(s):// URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new AppError('invalid_input', 'the server URL must be http:// (loopback only) or https://');
  if (u.username || u.password || u.search || u.hash) throw new AppError('invalid_input', 'the server URL must not carry credentials, a query or a fragment');
  if (u.protocol === 'http:' && !isLoopbackHostname(u.hostname)) {
    throw new AppError('invalid_input', `refusing plain http to ${u.hostname}: server credentials are sent only over https:// to another host`, {
      hint: 'use https:// (TLS on the server with --tls-cert/--tls-key, or a TLS load balancer in front)',
    });
  }
  return u;
}
