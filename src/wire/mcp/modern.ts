// Owns MCP 2026-07-28 request checks: which era a request is in, the per-request _meta envelope, Mcp-Method/Mcp-Name headers.
import { HEADER_MISMATCH, INVALID_PARAMS, type JsonRpcId, errorResponse } from './jsonrpc.js';
import { isModernProtocolVersion, isSupportedProtocolVersion, unsupportedVersionError } from './versions.js';

export const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
export const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
const LOG_LEVELS = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);
/** Methods whose Mcp-Name header mirrors params.name (resources and prompts are not served here). */
const NAMED = new Set(['tools/call']);

/** The request headers the 2026 checks read, as node:http parsed them. */
export interface ModernHeaders {
  readonly protocolVersion: string | undefined;
  readonly method: string | string[] | undefined;
  readonly name: string | string[] | undefined;
}

/** legacy: serve with 2025 rules, untouched. modern: serve with 2026 rules. reject: answer `body` with `status`. */
export type EraVerdict = { era: 'legacy' } | { era: 'modern' } | { era: 'reject'; status: number; body: string };

const LEGACY: EraVerdict = { era: 'legacy' };
const MODERN_OK: EraVerdict = { era: 'modern' };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** HTTP optional whitespace (SP, HTAB) around a field value is not part of it (RFC 9110 §5.5). */
function ows(v: string): string {
  return v.replace(/^[ \t]+|[ \t]+$/g, '');
}

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** An Mcp-Name value: plain, or the `=?base64?…?=` sentinel clients use for values that are not plain ASCII. */
function decodeName(v: string): string | undefined {
  if (!v.startsWith('=?base64?') || !v.endsWith('?=')) return v;
  const b64 = v.slice(9, -2);
  if (b64.length % 4 !== 0 || !B64.test(b64)) return undefined;
  try {
    return UTF8.decode(Buffer.from(b64, 'base64'));
  } catch {
    return undefined;
  }
}

function reject(status: number, id: JsonRpcId | null, code: number, message: string): EraVerdict {
  return { era: 'reject', status, body: errorResponse(id, code, message) };
}

function mismatch(id: JsonRpcId | null, message: string): EraVerdict {
  return reject(400, id, HEADER_MISMATCH, message);
}

/** The first problem of a present 2026 envelope, or null (protocolVersion is checked by the caller). */
function envelopeProblem(meta: Record<string, unknown>): string | null {
  if (!isObject(meta[CLIENT_CAPABILITIES_KEY])) return `_meta.${CLIENT_CAPABILITIES_KEY} must be an object`;
  const info = meta[CLIENT_INFO_KEY];
  if (info !== undefined && (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string')) return `_meta.${CLIENT_INFO_KEY} must be {name, version}`;
  const level = meta[LOG_LEVEL_KEY];
  if (level !== undefined && (typeof level !== 'string' || !LOG_LEVELS.has(level))) return `_meta.${LOG_LEVEL_KEY} is not a log level`;
  return null;
}

/**
 * Picks the revision of one request (body first, header as the cross-check) and applies the 2026 header rules:
 * 1. no protocolVersion claim in params._meta and no 2026 header → legacy (2025 rules only, nothing below applies);
 * 2. a 2026 header without a claim, or a malformed envelope → -32602 (400);
 * 3. header and claim disagree, or MCP-Protocol-Version / Mcp-Method / Mcp-Name missing or not matching the body → -32020 (400);
 * 4. a claim naming a revision we do not serve statelessly → -32022 (400) with the supported list.
 */
export function selectEra(h: ModernHeaders, id: JsonRpcId, method: string, params: unknown): EraVerdict {
  const meta = isObject(params) && isObject(params._meta) ? params._meta : undefined;
  const claimed = meta !== undefined && Object.prototype.hasOwnProperty.call(meta, PROTOCOL_VERSION_KEY);
  const header = h.protocolVersion === undefined ? undefined : ows(h.protocolVersion);
  if (!claimed) {
    if (header === undefined || !isModernProtocolVersion(header)) return LEGACY;
    return reject(400, id, INVALID_PARAMS, `protocol ${header} needs params._meta with ${PROTOCOL_VERSION_KEY} and ${CLIENT_CAPABILITIES_KEY}`);
  }
  const version = meta![PROTOCOL_VERSION_KEY];
  if (typeof version !== 'string') return reject(400, id, INVALID_PARAMS, `_meta.${PROTOCOL_VERSION_KEY} must be a string`);
  const problem = envelopeProblem(meta!);
  if (problem !== null) return reject(400, id, INVALID_PARAMS, problem);
  if (header === undefined) return mismatch(id, 'the MCP-Protocol-Version header is required');
  if (header !== version) return mismatch(id, 'the MCP-Protocol-Version header and _meta name different versions');
  if (!isModernProtocolVersion(version)) return { era: 'reject', status: 400, body: unsupportedVersionError(id, version) };
  const mh = h.method;
  if (mh === undefined) return mismatch(id, 'the Mcp-Method header is required');
  if (typeof mh !== 'string' || ows(mh) !== method) return mismatch(id, 'the Mcp-Method header does not match the body');
  if (NAMED.has(method) && isObject(params) && typeof params.name === 'string') {
    const nh = h.name;
    if (nh === undefined) return mismatch(id, 'the Mcp-Name header is required');
    if (typeof nh !== 'string' || decodeName(ows(nh)) !== params.name) return mismatch(id, 'the Mcp-Name header does not match the body');
  }
  return MODERN_OK;
}

/** For notifications: a 2026 header makes one modern, and then a present Mcp-Method must match it. */
export function notificationProblem(h: ModernHeaders, method: string): string | null {
  const header = h.protocolVersion === undefined ? undefined : ows(h.protocolVersion);
  if (header === undefined || !isModernProtocolVersion(header) || h.method === undefined) return null;
  if (typeof h.method !== 'string' || ows(h.method) !== method) return errorResponse(null, HEADER_MISMATCH, 'the Mcp-Method header does not match the body');
  return null;
}

/**
 * An MCP-Protocol-Version header naming a revision we do not serve: the -32022 body (HTTP 400) carrying `id`, or null.
 * Checked once the body is read, so the error carries the request's id; absent means 2025-03-26 (spec).
 */
export function unsupportedHeaderProblem(h: ModernHeaders, id: JsonRpcId | null): string | null {
  if (h.protocolVersion === undefined) return null;
  const raw: unknown = h.protocolVersion;
  const v = ows(Array.isArray(raw) ? raw.join(', ') : String(raw));
  return isSupportedProtocolVersion(v) ? null : unsupportedVersionError(id, v);
}
