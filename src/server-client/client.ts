// Owns the one typed ServerClient: node:http keep-alive calls to the AgentTeam Server with timeouts, abort, idempotency keys and typed errors.
import { Agent, request, type IncomingMessage } from 'node:http';
import { systemClock, type Clock } from '../shared/clock.js';
import { AppError, isErrorCode, type ErrorCode } from '../shared/errors.js';
import { SELECTOR_PATTERN, SELECTOR_RE } from '../shared/ids.js';
import { DOMAINS } from '../domains/registry.js';
import type { AnyDomain } from '../domains/module.js';
import type { BootstrapResult } from '../domains/member/contract.js';
import type { ServerApi, ServerErrorKind, ServerInfo } from './api.js';
import type { Call as DomainCall, CallOptions, Send, Streams } from './send.js';
import { streamDownload, streamUpload, type StreamTarget } from './streams.js';

export interface ServerClientOptions {
  baseUrl: string;
  /** Per-call timeout; default 10 s. */
  timeoutMs?: number;
  clock?: Clock;
}

/** Largest JSON response body accepted (a page of 100 long messages; attachment bytes never travel as JSON, see streams.ts). */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/**
 * A failed server call. `kind` tells network trouble and timeouts from refusals (client) and server faults;
 * `httpStatus` is the server's status when a response arrived. Security invariant: messages never carry credentials.
 */
export class ServerCallError extends AppError {
  readonly kind: ServerErrorKind;
  readonly httpStatus: number | undefined;
  readonly aborted: boolean;

  constructor(code: ErrorCode, message: string, kind: ServerErrorKind, opts: { httpStatus?: number; hint?: string; aborted?: boolean } = {}) {
    super(code, message, opts.hint !== undefined ? { hint: opts.hint } : {});
    this.name = 'ServerCallError';
    this.kind = kind;
    this.httpStatus = opts.httpStatus;
    this.aborted = opts.aborted ?? false;
  }
}

interface Call extends DomainCall {
  credential?: string;
}

export class ServerClient {
  private readonly base: URL;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  private readonly timeoutMs: number;
  private readonly clock: Clock;

  constructor(opts: ServerClientOptions) {
    this.base = new URL(opts.baseUrl);
    if (this.base.protocol !== 'http:') throw new AppError('invalid_input', 'ServerClient baseUrl must be http://');
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.clock = opts.clock ?? systemClock;
  }

  info(o?: CallOptions): Promise<ServerInfo> {
    return this.call({ method: 'GET', path: '/v1/server', opts: o });
  }

  bootstrap(adminToken: string, input: { ownerName?: string } = {}, o?: CallOptions): Promise<BootstrapResult> {
    return this.call({ method: 'POST', path: '/v1/admin/bootstrap', credential: adminToken, body: input, opts: o });
  }

  /** The API bound to one member's server credential, one group per registered domain. */
  as(credential: string): ServerApi {
    const t: StreamTarget = { base: this.base, clock: this.clock, idleMs: this.timeoutMs };
    const root = basePath(this.base);
    const streams: Streams = {
      upload: (path, size, body, o) => streamUpload(t, credential, root + path, size, body, o),
      download: (path, consume, o) => streamDownload(t, credential, root + path, consume, o),
    };
    const send = Object.assign(<T>(c: DomainCall) => this.call<T>({ ...c, credential }), { streams }) as Send;
    return Object.freeze(Object.fromEntries(DOMAINS.map((d: AnyDomain) => [d.key, asyncOnly(d.client(send) as Record<string, unknown>)]))) as unknown as ServerApi;
  }

  close(): void {
    this.agent.destroy();
  }

  /**
   * One HTTP exchange; resolves with `data` of an ok envelope or rejects with ServerCallError. A request that fails
   * because the server closed an idle keep-alive socket just as it was reused is retried once, but only when it is
   * safe to repeat (a GET, or a mutation carrying an idempotency key).
   */
  async call<T>(c: Call): Promise<T> {
    try {
      return await this.once<T>(c);
    } catch (e) {
      const safe = c.method === 'GET' || c.opts?.idempotencyKey !== undefined;
      if (e instanceof StaleSocket && safe) return this.once<T>(c);
      if (e instanceof StaleSocket) throw e.error;
      throw e;
    }
  }

  private once<T>(c: Call): Promise<T> {
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
      const req = request(
        { protocol: 'http:', hostname: this.base.hostname, port: this.base.port, method: c.method, path: basePath(this.base) + c.path, headers, agent: this.agent },
        (res) => readResponse(res, (err, v) => settle(err, v as T)),
      );
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
        const err = new ServerCallError('upstream_unavailable', `server unreachable (${e.code ?? 'network error'})`, 'network');
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

export function readResponse(res: IncomingMessage, done: (err: ServerCallError | null, value?: unknown) => void): void {
  const status = res.statusCode ?? 0;
  const chunks: Buffer[] = [];
  let size = 0;
  res.on('data', (c: Buffer) => {
    size += c.length;
    if (size > MAX_RESPONSE_BYTES) {
      done(new ServerCallError('upstream_unavailable', 'server response too large', 'server', { httpStatus: status }));
      res.destroy();
      return;
    }
    chunks.push(c);
  });
  res.on('error', () => done(new ServerCallError('upstream_unavailable', 'server response was cut off', 'network', { httpStatus: status })));
  res.on('end', () => {
    let env: { ok?: unknown; data?: unknown; error?: { code?: unknown; message?: unknown; hint?: unknown } } | undefined;
    try {
      env = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      env = undefined;
    }
    if (status >= 200 && status < 300 && env?.ok === true) return done(null, env.data);
    const code = env?.error?.code;
    const message = typeof env?.error?.message === 'string' ? env.error.message.slice(0, 500) : `server answered HTTP ${status}`;
    const hint = typeof env?.error?.hint === 'string' ? env.error.hint : undefined;
    const opts = { httpStatus: status, ...(hint !== undefined ? { hint } : {}) };
    // Server faults (and unparseable answers) are the upstream's problem; 4xx refusals keep the server's code.
    if (status >= 500 || !isErrorCode(code) || status < 400) return done(new ServerCallError('upstream_unavailable', `server error: ${message}`, 'server', opts));
    done(new ServerCallError(code, message, 'client', opts));
  });
}
