// Owns the one call shape every domain client uses (method, path, body, options) and its path/query encoders.
import { AppError } from '../shared/errors.js';
import { ID_RE } from '../shared/ids.js';

/** Options every call may carry. Mutations may carry an idempotency key (sent as Idempotency-Key + X-Request-ID). */
export interface CallOptions {
  signal?: AbortSignal;
  idempotencyKey?: string;
}

export interface Call {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: unknown;
  opts?: CallOptions | undefined;
}

/** What a streamed download tells its consumer before the body (an attachment's metadata, from response headers). */
export interface StreamMeta {
  id: string;
  name: string;
  contentType: string;
  size: number;
}

/** Streamed exchanges (attachment bytes never travel as JSON): an upload from an async iterable, a download to a consumer. */
export interface Streams {
  upload<T>(path: string, size: number, body: AsyncIterable<Buffer>, o?: CallOptions): Promise<T>;
  download<R>(path: string, consume: (meta: StreamMeta, body: AsyncIterable<Buffer>) => Promise<R>, o?: CallOptions): Promise<R>;
}

/** Sends one call with the bound member's credential; resolves with the ok envelope's data. `streams` for raw bodies. */
export type Send = (<T>(c: Call) => Promise<T>) & { readonly streams: Streams };

/**
 * A path segment holding an id. Security invariant: only the id grammar reaches a path, so `.`, `..`, slashes or
 * encoded separators can never turn one route into another; anything else is refused before the request is made.
 */
export function seg(id: string, what = 'id'): string {
  if (typeof id !== 'string' || !ID_RE.test(id)) throw new AppError('validation_failed', `${what} must match ${ID_RE.source}`);
  return encodeURIComponent(id);
}

export function qs(q: Record<string, string | number | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined) p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}
