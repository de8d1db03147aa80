// Owns Exec envelopes: {"ok":true,"data"} and the closed {"ok":false,"error"} shape; maps any failure to one public code.
import type { ErrorMetadataValue } from '../../catalog/error-schema.js';
import { ERROR_CODES, type ErrorCode } from '../../shared/errors.js';
import { publicFailure } from '../../shared/failure.js';

export type { ErrorMetadataValue };

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

/** Classifies a failure through the one public mapping (shared/failure.ts) that MCP tool errors use too. */
export function classify(err: unknown): ErrorEnvelope {
  const f = publicFailure(err);
  return errorEnvelope(f.code, f.message, f.hint ? { hint: f.hint } : {});
}
