// Owns the one POST of an Exec call: node:http to the loopback daemon with the bearer, a bounded response read.
import { request } from 'node:http';

export type SendResult = { kind: 'response'; status: number; body: string } | { kind: 'unreachable'; afterSend: boolean };

const MAX_RESPONSE = 1024 * 1024;
const IDLE_TIMEOUT_MS = 120_000;

/**
 * Sends exactly one JSON request; never retries. `afterSend` tells whether the request may have reached the daemon.
 * With `via` (a loopback HTTP proxy, see proxy.ts) the request goes to the proxy in absolute form.
 */
export function sendOnce(url: URL, token: string, body: string | null, via: URL | null = null): Promise<SendResult> {
  return new Promise((resolve) => {
    let sent = false;
    let settled = false;
    const done = (r: SendResult) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    // body null: a GET (the runtime catalog), else one JSON POST.
    const payload = Buffer.from(body ?? '');
    const headers = { ...(body === null ? {} : { 'content-type': 'application/json', 'content-length': payload.length }), authorization: `Bearer ${token}`, accept: 'application/json' };
    // Through a proxy: connect to it and name the daemon's absolute URL as the request target (RFC 9112 §3.2.2).
    const where = via
      ? { host: via.hostname.replace(/^\[|\]$/g, ''), port: Number(via.port || 80), path: url.href, headers: { ...headers, host: url.host } }
      : { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80), path: `${url.pathname}${url.search}`, headers };
    const req = request({
      ...where,
      method: body === null ? 'GET' : 'POST',
      timeout: IDLE_TIMEOUT_MS,
      // One request, one connection: no keep-alive socket holds the CLI open after the answer.
      agent: false,
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => done({ kind: 'unreachable', afterSend: sent }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_RESPONSE) {
          res.destroy();
          return done({ kind: 'response', status: res.statusCode ?? 0, body: '' });
        }
        chunks.push(c);
      });
      res.on('end', () => done({ kind: 'response', status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => done({ kind: 'unreachable', afterSend: true }));
    });
    req.end(body === null ? undefined : payload, () => {
      sent = true;
    });
  });
}
