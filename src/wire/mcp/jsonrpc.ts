// Owns JSON-RPC 2.0 framing for MCP: classifying one decoded message and encoding responses as JSON text.
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** MCP 2026-07-28: HTTP headers disagree with the body, or a required one is missing (HTTP 400). */
export const HEADER_MISMATCH = -32020;
/** MCP 2026-07-28: the request's protocol version is not served (HTTP 400, data: {supported, requested}). */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export type JsonRpcId = string | number;

/** Bound on echoed string ids so an error response can never grow with the request. */
const MAX_ID_CHARS = 256;

export type Classified =
  | { kind: 'request'; id: JsonRpcId; method: string; params: unknown }
  | { kind: 'notification'; method: string }
  | { kind: 'response' }
  | { kind: 'batch' }
  | { kind: 'invalid'; id: JsonRpcId | null };

function validId(id: unknown): id is JsonRpcId {
  return (typeof id === 'string' && id.length <= MAX_ID_CHARS) || (typeof id === 'number' && Number.isFinite(id));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Sorts one decoded body into request / notification / response / batch / invalid. MCP ids are strings or
 * numbers, never null; params, when present, must be structured (an object or array).
 */
export function classify(msg: unknown): Classified {
  if (Array.isArray(msg)) return { kind: 'batch' };
  if (!isObject(msg)) return { kind: 'invalid', id: null };
  const hasId = Object.prototype.hasOwnProperty.call(msg, 'id');
  const id = hasId && validId(msg.id) ? msg.id : null;
  if (msg.jsonrpc !== '2.0') return { kind: 'invalid', id };
  if (Object.prototype.hasOwnProperty.call(msg, 'method')) {
    if (typeof msg.method !== 'string') return { kind: 'invalid', id };
    const params = msg.params;
    if (params !== undefined && (typeof params !== 'object' || params === null)) return { kind: 'invalid', id };
    if (!hasId) return { kind: 'notification', method: msg.method };
    if (id === null) return { kind: 'invalid', id: null };
    return { kind: 'request', id, method: msg.method, params };
  }
  const hasResult = Object.prototype.hasOwnProperty.call(msg, 'result');
  const hasError = Object.prototype.hasOwnProperty.call(msg, 'error');
  if (hasId && hasResult !== hasError) return { kind: 'response' };
  return { kind: 'invalid', id };
}

function idJson(id: JsonRpcId | null): string {
  return id === null ? 'null' : JSON.stringify(id);
}

/** A success response around an already-serialized result (the hot path never re-serializes the result). */
export function resultResponse(id: JsonRpcId, resultJson: string): string {
  return `{"jsonrpc":"2.0","id":${idJson(id)},"result":${resultJson}}`;
}

/** An error response. `message` is a fixed public string: never a cause, input echo or secret. */
export function errorResponse(id: JsonRpcId | null, code: number, message: string): string {
  return `{"jsonrpc":"2.0","id":${idJson(id)},"error":{"code":${code},"message":${JSON.stringify(message)}}}`;
}
