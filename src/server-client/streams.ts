// Owns the ServerClient's streamed exchanges: an attachment upload (body from an async iterable) and a download (body to a consumer).
import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as tlsRequest } from 'node:https';
import type { Clock, Timer } from '../shared/clock.js';
import type { CallOptions, StreamMeta as AttachmentMeta } from './send.js';
import { networkError, readResponse, ServerCallError } from './response.js';
import { tlsNameOptions } from './tls.js';

export interface StreamTarget {
  base: URL;
  clock: Clock;
  /** No progress (a chunk written or read) for this long fails the call. */
  idleMs: number;
  /** Extra CA certificates for an https:// base. */
  ca?: string | Buffer;
}

/** http or https by the base URL. Security invariant: https verifies the certificate (system CAs plus `ca`). */
function request(t: StreamTarget, opts: RequestOptions, cb: (res: IncomingMessage) => void): ClientRequest {
  const hostname = t.base.hostname.replace(/^\[|\]$/g, '');
  if (t.base.protocol === 'https:') return tlsRequest({ ...opts, protocol: 'https:', hostname, ...tlsNameOptions(hostname), ...(t.ca ? { ca: t.ca } : {}) }, cb);
  return httpRequest({ ...opts, protocol: 'http:', hostname }, cb);
}

const aborted = () => new ServerCallError('upstream_unavailable', 'server call aborted', 'network', { aborted: true });

/**
 * One streamed request on its own connection (agent: false): a body read from a one-shot source cannot be replayed,
 * so it never rides a pooled keep-alive socket that the server may be closing as idle. Settles once; the idle timer restarts on every bit of progress; abort and idle destroy the socket. */
function exchange<T>(t: StreamTarget, o: CallOptions | undefined, build: (settle: (e: unknown, v?: T) => void, progress: () => void) => ClientRequest): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (o?.signal?.aborted) return reject(aborted());
    let settled = false;
    let timer: Timer | undefined;
    let req: ClientRequest | undefined;
    /** `e` null is success; any other failure passes through as thrown (a consumer's own error keeps its type). */
    const settle = (e: unknown, v?: T) => {
      if (settled) return;
      settled = true;
      timer?.cancel();
      o?.signal?.removeEventListener('abort', onAbort);
      if (e !== null) {
        req?.destroy();
        reject(e);
      } else resolve(v as T);
    };
    const progress = () => {
      timer?.cancel();
      timer = t.clock.setTimer(t.idleMs, () => settle(new ServerCallError('upstream_unavailable', `server made no progress within ${t.idleMs} ms`, 'timeout')));
    };
    const onAbort = () => settle(aborted());
    o?.signal?.addEventListener('abort', onAbort, { once: true });
    progress();
    req = build(settle, progress);
    req.on('error', (e: NodeJS.ErrnoException) => setImmediate(() => settle(networkError(e))));
  });
}

function headersFor(credential: string, extra: Record<string, string | number>): Record<string, string | number> {
  // Security invariant: the credential travels only in this header and is never put in an error message.
  return { authorization: `Bearer ${credential}`, ...extra };
}

/** POST the body (exactly `size` bytes) as application/octet-stream; resolves with the ok envelope's data. */
export function streamUpload<T>(t: StreamTarget, credential: string, path: string, size: number, body: AsyncIterable<Buffer>, o?: CallOptions): Promise<T> {
  return exchange<T>(t, o, (settle, progress) => {
    let answered = false;
    const req = request(
      t,
      { port: t.base.port, method: 'POST', path, agent: false, headers: headersFor(credential, { accept: 'application/json', 'content-type': 'application/octet-stream', 'content-length': size }) },
      (res) => {
        answered = true;
        progress();
        readResponse(res, (e, v) => settle(e, v as T));
      },
    );
    void (async () => {
      try {
        for await (const c of body) {
          // The server may answer (and close) before reading everything, e.g. a refusal: stop sending then.
          if (answered || req.destroyed) return;
          progress();
          if (!req.write(c)) await new Promise<void>((r) => (req.once('drain', r), req.once('close', r)));
        }
        if (!answered && !req.destroyed) req.end();
      } catch (e) {
        settle(e ?? new Error('the upload source failed'));
      }
    })();
    return req;
  });
}

/** The bytes of `res`, exactly `size` of them, restarting the idle timer per chunk; a short or long body throws. */
async function* exactly(res: IncomingMessage, size: number, progress: () => void): AsyncGenerator<Buffer> {
  let got = 0;
  try {
    for await (const c of res as AsyncIterable<Buffer>) {
      got += c.length;
      if (got > size) break;
      progress();
      yield c;
    }
  } catch {
    throw new ServerCallError('upstream_unavailable', 'the attachment download was cut off', 'network');
  }
  if (got !== size) throw new ServerCallError('upstream_unavailable', 'the attachment download was cut off', 'network');
}

function metaOf(res: IncomingMessage): AttachmentMeta | undefined {
  const h = res.headers;
  const size = Number(h['content-length']);
  const id = h['x-attachment-id'];
  const ct = h['x-attachment-content-type'];
  let name: string;
  try {
    name = decodeURIComponent(String(h['x-attachment-name'] ?? ''));
  } catch {
    return undefined;
  }
  if (typeof id !== 'string' || typeof ct !== 'string' || name.length === 0 || !Number.isSafeInteger(size) || size < 0) return undefined;
  return { id, name, contentType: ct, size };
}

/** GET a streamed body and hand it to `consume`; resolves with what consume returns once the body is complete. */
export function streamDownload<R>(t: StreamTarget, credential: string, path: string, consume: (meta: AttachmentMeta, body: AsyncIterable<Buffer>) => Promise<R>, o?: CallOptions): Promise<R> {
  return exchange<R>(t, o, (settle, progress) => {
    const req = request(t, { port: t.base.port, method: 'GET', path, agent: false, headers: headersFor(credential, { accept: 'application/octet-stream, application/json' }) }, (res) => {
      progress();
      if (res.statusCode !== 200) return readResponse(res, (e) => settle(e ?? new ServerCallError('upstream_unavailable', `server answered HTTP ${res.statusCode}`, 'server')));
      const meta = metaOf(res);
      if (!meta) return settle(new ServerCallError('upstream_unavailable', 'server sent an attachment without its metadata', 'server'));
      consume(meta, exactly(res, meta.size, progress)).then(
        (v) => settle(null, v),
        (e: unknown) => settle(e ?? new Error('the attachment could not be received')),
      );
    });
    req.end();
    return req;
  });
}
