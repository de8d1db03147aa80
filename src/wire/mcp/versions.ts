// Owns the MCP revisions served on the MCP routes and the UnsupportedProtocolVersionError every era answers with.
import { type JsonRpcId, UNSUPPORTED_PROTOCOL_VERSION } from './jsonrpc.js';

/** 2025 revisions we speak; initialize answers the newest when a client asks for one we do not know. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25'] as const;
export const LATEST_PROTOCOL_VERSION = '2025-11-25';
/** Spec (basic/transports): without an MCP-Protocol-Version header the server assumes 2025-03-26. */
export const DEFAULT_PROTOCOL_VERSION = '2025-03-26';
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
/** Stateless revisions: no initialize, every request carries its version and capabilities in _meta. */
export const MODERN_PROTOCOL_VERSIONS = [MODERN_PROTOCOL_VERSION] as const;
/** Every revision served on the MCP routes, oldest first (server/discover's supportedVersions). */
export const ALL_PROTOCOL_VERSIONS = [...SUPPORTED_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS] as const;

const LEGACY = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);
const MODERN = new Set<string>(MODERN_PROTOCOL_VERSIONS);
/** The echo of a requested revision is bounded: an error never grows with the request. */
const MAX_REQUESTED_CHARS = 64;
const SUPPORTED_JSON = JSON.stringify(ALL_PROTOCOL_VERSIONS);

export function isLegacyProtocolVersion(v: string): boolean {
  return LEGACY.has(v);
}

export function isModernProtocolVersion(v: string): boolean {
  return MODERN.has(v);
}

/** Accepted MCP-Protocol-Version values (2025 and 2026). */
export function isSupportedProtocolVersion(v: string): boolean {
  return LEGACY.has(v) || MODERN.has(v);
}

/**
 * UnsupportedProtocolVersionError (-32022, sent with HTTP 400): `data.supported` is every revision server/discover
 * lists, `data.requested` echoes the asked revision (cut to 64 characters). `id` is the request's, null when the
 * message has none (a notification, a response, an unparsable or invalid body).
 */
export function unsupportedVersionError(id: JsonRpcId | null, requested: string): string {
  const echo = requested.length > MAX_REQUESTED_CHARS ? requested.slice(0, MAX_REQUESTED_CHARS) : requested;
  const data = `{"supported":${SUPPORTED_JSON},"requested":${JSON.stringify(echo)}}`;
  return `{"jsonrpc":"2.0","id":${id === null ? 'null' : JSON.stringify(id)},"error":{"code":${UNSUPPORTED_PROTOCOL_VERSION},"message":"unsupported protocol version","data":${data}}}`;
}
