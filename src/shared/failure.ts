// Owns the one mapping from any failure to its public form {code, message, hint?}, used by both bridges (Exec envelopes, MCP tool errors).
import { AppError, isErrorCode, type ErrorCode } from './errors.js';

export interface PublicFailure {
  code: ErrorCode;
  message: string;
  hint?: string;
}

/** Failures of a server call, typed so callers can tell network trouble from a refusal or a server fault. */
export type ServerErrorKind = 'network' | 'timeout' | 'client' | 'server';
const KINDS: ReadonlySet<string> = new Set(['network', 'timeout', 'client', 'server']);

/** The ServerErrorKind of a failed server call, if the error carries one. */
export function serverErrorKind(e: unknown): ServerErrorKind | undefined {
  const k = e && typeof e === 'object' ? (e as { kind?: unknown }).kind : undefined;
  return typeof k === 'string' && KINDS.has(k) ? (k as ServerErrorKind) : undefined;
}

/**
 * A network or timeout failure reaching the server, or a server fault, is upstream_unavailable; a server refusal and a
 * local AppError keep their code, message and hint. Security invariant: anything else is `internal` with a generic
 * message — causes, stacks, URLs and payloads never cross a bridge.
 */
export function publicFailure(err: unknown): PublicFailure {
  const kind = serverErrorKind(err);
  // A certificate this daemon does not trust is said as such to the agent (retrying will not help), without the TLS detail.
  if (kind === 'network' && (err as { untrusted?: unknown }).untrusted === true) {
    return { code: 'upstream_unavailable', message: "the AgentTeam server's certificate is not trusted by this daemon", hint: 'retrying will not help: ask the daemon owner to check the server CA' };
  }
  if (kind === 'network' || kind === 'timeout') {
    return { code: 'upstream_unavailable', message: 'the AgentTeam server could not be reached', hint: 'retry shortly; for a mutation, read the resource first to see whether it was applied' };
  }
  const e = err as { code?: unknown; message?: unknown; hint?: unknown } | null;
  const withHint = (f: PublicFailure): PublicFailure => (typeof e?.hint === 'string' && e.hint ? { ...f, hint: e.hint } : f);
  if (err instanceof AppError && kind === undefined) return withHint({ code: err.code, message: err.code === 'internal' ? 'internal error' : err.message });
  if (kind !== undefined) {
    if (isErrorCode(e?.code) && e.code !== 'internal' && kind === 'client' && typeof e.message === 'string') return withHint({ code: e.code, message: e.message });
    return { code: 'upstream_unavailable', message: 'the AgentTeam server failed to answer', hint: 'retry shortly' };
  }
  return { code: 'internal', message: 'internal error' };
}
