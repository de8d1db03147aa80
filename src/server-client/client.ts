// Owns the one typed ServerClient: node:http keep-alive calls to the AgentTeam Server with timeouts, abort, idempotency keys and typed errors.
import { Agent, request, type IncomingMessage } from 'node:http';
import { Agent as TlsAgent, request as tlsRequest } from 'node:https';
import { systemClock, type Clock } from '../shared/clock.js';
import { parseServerUrl } from './server-url.js';
import { tlsNameOptions } from './tls.js';
import { SELECTOR_PATTERN, SELECTOR_RE } from '../shared/ids.js';
import type { AnswerOf, ClientDomain, ServerApi, ServerInfo } from './api.js';
import type { Call as DomainCall, CallOptions, Send, Streams } from './send.js';
import { networkError, readResponse, ServerCallError } from './response.js';
import { streamDownload, streamUpload, type StreamTarget } from './streams.js';

export { ServerCallError };

export interface ServerClientOptions {
  baseUrl: string;
  /** The domains whose calls `as()` mounts (the composition root's registry list). */
  domains: readonly ClientDomain[];
  /** Further server processes of the same server, tried in turn when one is unreachable (reads and keyed writes). */
  fallbackUrls?: readonly string[];
  /** Extra PEM CA certificates trusted for https:// (a private CA or a self-signed server certificate). */
  ca?: string | Buffer;
  /** Per-call timeout; default 10 s. */
  timeoutMs?: number;
  clock?: Clock;
}

/**
 * A kept-alive socket idle this long is closed by the client, before the server's own keep-alive timeout (5 s): a call
 * sent just as the server closed an idle socket failed with ECONNRESET, and a POST without an idempotency key (a
 * kb_search) cannot be retried. Only idle sockets are closed; a request waiting on its answer is not affected.
 */
export const IDLE_SOCKET_MS = 4_000;

interface Call extends DomainCall {
  credential?: string;
}

interface Target {
  base: URL;
  agent: Agent;
  https: boolean;
}

export class ServerClient {
  private readonly targets: Target[];
  /** Index of the server process that answered last; calls start there. */
  private preferred = 0;
  private readonly timeoutMs: number;
  private readonly clock: Clock;
  private readonly ca: string | Buffer | undefined;
  private readonly domains: readonly ClientDomain[];

  constructor(opts: ServerClientOptions) {
    this.ca = opts.ca;
    this.domains = opts.domains;
    const urls = [opts.baseUrl, ...(opts.fallbackUrls ?? [])].map(parseServerUrl);
    const plain = new Agent({ keepAlive: true, maxSockets: 64, timeout: IDLE_SOCKET_MS });
    const tls = urls.some((u) => u.protocol === 'https:') ? new TlsAgent({ keepAlive: true, maxSockets: 64, timeout: IDLE_SOCKET_MS, ...(opts.ca ? { ca: opts.ca } : {}) }) : undefined;
    this.targets = urls.map((base) => (base.protocol === 'https:' ? { base, agent: tls!, https: true } : { base, agent: plain, https: false }));
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.clock = opts.clock ?? systemClock;
  }

  /** The URL calls go to first (the last one that answered). */
  get url(): string {
    return this.targets[this.preferred]!.base.href.replace(/\/$/, '');
  }

  /** Liveness of the server process and its database (GET /v1/health); rejects with upstream_unavailable when either is down. */
  health(o?: CallOptions): Promise<{ serverId: string; server: 'ok'; database: 'ok' }> {
    return this.call({ method: 'GET', path: '/v1/health', opts: o });
  }

  info(o?: CallOptions): Promise<ServerInfo> {
    return this.call({ method: 'GET', path: '/v1/server', opts: o });
  }

  bootstrap(adminToken: string, input: { ownerName?: string } = {}, o?: CallOptions): Promise<AnswerOf<'bootstrap'>> {
    return this.call({ method: 'POST', path: '/v1/admin/bootstrap', credential: adminToken, body: input, opts: o });
  }

  /** Redeems a one-time invite code: a new Human member with its own credential (returned once). */
  join(code: string, o?: CallOptions): Promise<AnswerOf<'join'>> {
    return this.call({ method: 'POST', path: '/v1/join', body: { code }, opts: o });
  }

  /** The API bound to one member's server credential, one group per registered domain. */
  as(credential: string): ServerApi {
    // Streams (one-shot bodies) go to the server process that answered last; they are not replayed elsewhere.
    const base = this.targets[this.preferred]!.base;
    const t: StreamTarget = { base, clock: this.clock, idleMs: this.timeoutMs, ...(this.ca ? { ca: this.ca } : {}) };
    const root = basePath(base);
    const streams: Streams = {
      upload: (path, size, body, o) => streamUpload(t, credential, root + path, size, body, o),
      download: (path, consume, o) => streamDownload(t, credential, root + path, consume, o),
    };
    const send = Object.assign(<T>(c: DomainCall) => this.call<T>({ ...c, credential }), { streams }) as Send;
    return Object.freeze(Object.fromEntries(this.domains.map((d) => [d.key, asyncOnly(d.client(send) as Record<string, unknown>)]))) as unknown as ServerApi;
  }

  close(): void {
    for (const a of new Set(this.targets.map((t) => t.agent))) a.destroy();
  }

  /**
   * One HTTP exchange; resolves with `data` of an ok envelope or rejects with ServerCallError. A request that fails
   * because the server closed an idle keep-alive socket just as it was reused is retried once, but only when it is
   * safe to repeat (a GET, or a mutation carrying an idempotency key). With several server URLs, an unreachable one is
   * skipped for the next: any call whose connection was refused (nothing was sent), and reads and keyed writes after
   * any network failure or timeout (safe to repeat: the key makes the retry a replay).
   */
  async call<T>(c: Call): Promise<T> {
    const safe = c.method === 'GET' || c.opts?.idempotencyKey !== undefined;
    const n = this.targets.length;
    const first = this.preferred;
    let last: unknown;
    for (let i = 0; i < n; i++) {
      const idx = (first + i) % n;
      try {
        const out = await this.onTarget<T>(this.targets[idx]!, c, safe);
        this.preferred = idx;
        return out;
      } catch (e) {
        last = e;
        const net = e instanceof ServerCallError && (e.kind === 'network' || e.kind === 'timeout') && !e.aborted;
        if (!net || !(safe || (e as ServerCallError).refused)) throw e;
      }
    }
    throw last;
  }

  private async onTarget<T>(t: Target, c: Call, safe: boolean): Promise<T> {
    try {
      return await this.once<T>(t, c);
    } catch (e) {
      if (e instanceof StaleSocket && safe) return this.once<T>(t, c);
      if (e instanceof StaleSocket) throw e.error;
      throw e;
    }
  }

  private once<T>(t: Target, c: Call): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const signal = c.opts?.signal;
      if (signal?.aborted) return reject(new ServerCallError('upstream_unavailable', 'server call aborted', 'network', { aborted: true }));
      const key = c.opts?.idempotencyKey;
      if (key !== undefined && !SELECTOR_RE.test(key)) return reject(new ServerCallError('invalid_input', `idempotency key must match ${SELECTOR_PATTERN}`, 'client'));
      const payload = c.body === undefined ? undefined : Buffer.from(JSON.stringify(c.body));
      const headers: Record<string, string | number> = { accept: 'application/json' };
      // Security invariant: the credential travels only in this header and is never put in an error message.
      if (c.credential !== undefined) headers.authorization = `Bearer ${c.credential}`;
      if (payload) (headers['content-type'] = 'application/json'), (headers['content-length'] = payload.length);
      if (key !== undefined) (headers['idempotency-key'] = key), (headers['x-request-id'] = key);
      let settled = false;
      const settle = (err: ServerCallError | StaleSocket | null, value?: T) => {
        if (settled) return;
        settled = true;
        timer.cancel();
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve(value as T);
      };
      const hostname = t.base.hostname.replace(/^\[|\]$/g, '');
      const reqOpts = { hostname, port: t.base.port, method: c.method, path: basePath(t.base) + c.path, headers, agent: t.agent };
      const onRes = (res: IncomingMessage) => readResponse(res, (err, v) => settle(err, v as T));
      // Security invariant: https verifies the certificate against the system CAs plus the configured `ca`; never disabled.
      const req = t.https ? tlsRequest({ ...reqOpts, protocol: 'https:', ...tlsNameOptions(hostname) }, onRes) : request({ ...reqOpts, protocol: 'http:' }, onRes);
      const onAbort = () => {
        settle(new ServerCallError('upstream_unavailable', 'server call aborted', 'network', { aborted: true }));
        req.destroy();
      };
      const timer = this.clock.setTimer(this.timeoutMs, () => {
        settle(new ServerCallError('upstream_unavailable', `server did not answer within ${this.timeoutMs} ms`, 'timeout'));
        req.destroy();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      let responded = false;
      req.on('response', () => (responded = true));
      req.on('error', (e: NodeJS.ErrnoException) => {
        const err = networkError(e);
        const stale = req.reusedSocket && !responded && e.code === 'ECONNRESET';
        // A response that already arrived wins over a late socket error (the server may close after refusing a body).
        setImmediate(() => settle(stale ? new StaleSocket(err) : err));
      });
      req.end(payload);
    });
  }
}

/** Every method of a domain client rejects (never throws synchronously), e.g. for an id refused before any request. */
function asyncOnly(api: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, f] of Object.entries(api)) {
    out[k] = (...args: unknown[]) => {
      try {
        return Promise.resolve((f as (...a: unknown[]) => unknown)(...args));
      } catch (e) {
        return Promise.reject(e);
      }
    };
  }
  return Object.freeze(out);
}

/** A reused keep-alive socket was reset before any response (typically the server had just closed it as idle). */
class StaleSocket extends Error {
  constructor(readonly error: ServerCallError) {
    super(error.message);
  }
}

function basePath(u: URL): string {
  return u.pathname.replace(/\/+$/, '');
}
