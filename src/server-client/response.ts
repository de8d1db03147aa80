// Owns reading a server answer: the typed ServerCallError, socket failures as errors, and one bounded JSON envelope read.
import type { IncomingMessage } from 'node:http';
import { AppError, isErrorCode, type ErrorCode } from '../shared/errors.js';
import type { ServerErrorKind } from './api.js';
import { certificateFailure } from './tls.js';

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
  /** The connection was refused: the request never reached a server, so any call may go to another one. */
  readonly refused: boolean;
  /** TLS refused the server's certificate (untrusted CA, wrong name, expired): retrying will not help, --server-ca may. */
  readonly untrusted: boolean;

  constructor(code: ErrorCode, message: string, kind: ServerErrorKind, opts: { httpStatus?: number; hint?: string; aborted?: boolean; refused?: boolean; untrusted?: boolean; stage?: string } = {}) {
    super(code, message, { ...(opts.hint !== undefined ? { hint: opts.hint } : {}), ...(opts.stage !== undefined ? { details: { stage: opts.stage } } : {}) });
    this.name = 'ServerCallError';
    this.kind = kind;
    this.httpStatus = opts.httpStatus;
    this.aborted = opts.aborted ?? false;
    this.refused = opts.refused ?? false;
    this.untrusted = opts.untrusted ?? false;
  }
}

/** A socket error as a ServerCallError: a certificate failure says so (never "unreachable"); anything else is unreachable. */
export function networkError(e: NodeJS.ErrnoException): ServerCallError {
  const cert = certificateFailure(e.code);
  if (cert) return new ServerCallError('upstream_unavailable', cert, 'network', { untrusted: true });
  return new ServerCallError('upstream_unavailable', `server unreachable (${e.code ?? 'network error'})`, 'network', { refused: e.code === 'ECONNREFUSED' });
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
    let env: { ok?: unknown; data?: unknown; error?: { code?: unknown; message?: unknown; hint?: unknown; details?: { stage?: unknown } } } | undefined;
    try {
      env = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      env = undefined;
    }
    if (status >= 200 && status < 300 && env?.ok === true) return done(null, env.data);
    const code = env?.error?.code;
    const message = typeof env?.error?.message === 'string' ? env.error.message.slice(0, 500) : `server answered HTTP ${status}`;
    const hint = typeof env?.error?.hint === 'string' ? env.error.hint : undefined;
    const stage = env?.error?.details?.stage;
    // Only a knowledge call's outer failure stage crosses from the server's details (a short closed word, never data).
    const opts = { httpStatus: status, ...(hint !== undefined ? { hint } : {}), ...(typeof stage === 'string' && /^[a-z_]{1,32}$/.test(stage) ? { stage } : {}) };
    // Server faults (and unparseable answers) are the upstream's problem; 4xx refusals keep the server's code.
    if (status >= 500 || !isErrorCode(code) || status < 400) return done(new ServerCallError('upstream_unavailable', `server error: ${message}`, 'server', opts));
    done(new ServerCallError(code, message, 'client', opts));
  });
}
