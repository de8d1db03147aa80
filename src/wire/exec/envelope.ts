// Owns Exec envelopes: {"ok":true,"data"} and the closed {"ok":false,"error"} shape; maps any failure to one public code.
import type { Static } from '@sinclair/typebox';
import type { ErrorMetadata } from '../../catalog/error-schema.js';
import { serverErrorKind } from './idempotency.js';
import { AppError, ERROR_CODES, isErrorCode, type ErrorCode } from '../../shared/errors.js';

export type ErrorMetadataValue = Static<typeof ErrorMetadata>;

export interface ExecError {
  code: ErrorCode;
  message: string;
  hint?: string;
  next?: string;
  metadata?: ErrorMetadataValue;
}

export interface ErrorEnvelope {
  ok: false;
  error: ExecError;
}

export interface OkEnvelope<O> {
  ok: true;
  data: O;
}

const MAX_TEXT = 1000;
/** Public strings are bounded; a longer one is cut at a character boundary. */
export const bounded = (s: string) => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 1)}…` : s);

export function errorEnvelope(code: ErrorCode, message: string, extra: { hint?: string; next?: string; metadata?: ErrorMetadataValue } = {}): ErrorEnvelope {
  const error: ExecError = { code, message: bounded(message) };
  if (extra.hint) error.hint = bounded(extra.hint);
  if (extra.next) error.next = bounded(extra.next);
  if (extra.metadata) error.metadata = extra.metadata;
  return { ok: false, error };
}

export const statusOf = (code: ErrorCode): number => ERROR_CODES[code];

/**
 * Classifies a failure. AppError and typed server-call errors keep their public code and message; a network or timeout
 * failure reaching the server is upstream_unavailable. Security invariant: anything else is `internal` with a generic
 * message — causes, stacks and payloads never cross the boundary.
 */
export function classify(err: unknown): ErrorEnvelope {
  const kind = serverErrorKind(err);
  if (kind === 'network' || kind === 'timeout') {
    return errorEnvelope('upstream_unavailable', 'the AgentTeam server could not be reached', { hint: 'retry shortly; for a mutation, read the resource first to see whether it was applied' });
  }
  if (err instanceof AppError) return errorEnvelope(err.code, err.code === 'internal' ? 'internal error' : err.message, err.hint ? { hint: err.hint } : {});
  if (kind !== undefined) {
    const e = err as { code?: unknown; message?: unknown; hint?: unknown };
    if (isErrorCode(e.code) && e.code !== 'internal' && typeof e.message === 'string') {
      return errorEnvelope(e.code, e.message, typeof e.hint === 'string' ? { hint: e.hint } : {});
    }
    if (kind === 'server') return errorEnvelope('upstream_unavailable', 'the AgentTeam server failed to answer');
  }
  return errorEnvelope('internal', 'internal error');
}
