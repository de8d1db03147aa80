// Owns MCP method dispatch per revision: 2025 (initialize, ping, tools/list, tools/call) and 2026-07-28 (server/discover, tools/list, tools/call).
import type { Logger } from '../../shared/log.js';
import { type McpHandler, type McpToolDef, type ToolContext, UnknownToolError } from './handler.js';
import { INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, type JsonRpcId, errorResponse, resultResponse } from './jsonrpc.js';
import { SERVER_INFO_KEY } from './modern.js';
import { ALL_PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, isLegacyProtocolVersion } from './versions.js';
import { RUNTIME_KINDS, createToolNamer, isRuntimeKind } from './naming.js';
import { serializeWithinBudget } from './resultbudget/budget.js';

export { ALL_PROTOCOL_VERSIONS, DEFAULT_PROTOCOL_VERSION, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, isSupportedProtocolVersion } from './versions.js';
/** The methods 2026-07-28 requests may call here; any other is HTTP 404 with -32601 (initialize and ping are gone). */
const MODERN_METHODS = new Set(['server/discover', 'tools/list', 'tools/call']);

/** Whether a 2026-07-28 request's method is implemented (the route answers 404 otherwise). */
export function isModernMethod(method: string): boolean {
  return MODERN_METHODS.has(method);
}

/**
 * 2026 cache hints. The inventory is static per route: fixed when the daemon starts and identical for every runtime,
 * agent and route, so tools/list may be cached for an hour and shared ("public"). server/discover carries the skill doc
 * in the runtime's tool naming, so it is cached for an hour per authorization ("private").
 */
export const TOOLS_LIST_TTL_MS = 3_600_000;
export const TOOLS_LIST_CACHE_SCOPE = 'public';
export const DISCOVER_TTL_MS = 3_600_000;
export const DISCOVER_CACHE_SCOPE = 'private';
/** Claude Code truncates server instructions beyond 2 KB; the skill doc must fit whole. */
export const MAX_INSTRUCTIONS_BYTES = 2048;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What dispatch needs from the request beyond the message: the lazily built tool context and the runtime's kind. */
export interface CallSite {
  /** Built only for tools/call. */
  ctx(): ToolContext;
  readonly agentId: string;
  readonly runtimeKind: string;
}

/** Synchronous answers (ping, lists, errors) are returned as strings: no promise hop on the hot path. */
export type Answer = string | Promise<string>;

export interface McpProtocol {
  /** 2025 rules: the JSON-RPC response text for one request. */
  dispatch(id: JsonRpcId, method: string, params: unknown, site: CallSite): Answer;
  /** 2026-07-28 rules, for a request selectEra accepted. */
  dispatchModern(id: JsonRpcId, method: string, params: unknown, site: CallSite): Answer;
  /** The skill doc in the runtime's naming: `instructions` of initialize and server/discover. */
  instructions(runtimeKind: string): string;
  /** The precomputed 2025 tools/list result JSON (for tests and size measurement). */
  readonly toolsListJson: string;
}

function sortedInventory(handler: McpHandler): McpToolDef[] {
  // Deterministic tools/list order: by name (code units), whatever order the handler registers tools in.
  const tools = [...handler.tools()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (let i = 1; i < tools.length; i++) if (tools[i]!.name === tools[i - 1]!.name) throw new Error(`duplicate tool ${tools[i]!.name}`);
  return tools;
}

export function createMcpProtocol(handler: McpHandler, opts: { version: string; log: Logger }): McpProtocol {
  // Precomputed once: the complete inventory, identical for every runtime and route (spec §Invariants).
  const tools = sortedInventory(handler);
  const known = new Set(tools.map((t) => t.name));
  const toolsJson = JSON.stringify(tools);
  const toolsListJson = `{"tools":${toolsJson}}`;
  const serverInfo = { name: 'agentteam', version: opts.version };
  const meta = JSON.stringify({ [SERVER_INFO_KEY]: serverInfo });
  const modernToolsListJson = `{"tools":${toolsJson},"ttlMs":${TOOLS_LIST_TTL_MS},"cacheScope":"${TOOLS_LIST_CACHE_SCOPE}","resultType":"complete","_meta":${meta}}`;
  const capabilities = { tools: { listChanged: false } };

  // Instructions per runtime kind (spec §Prompt Integration: they name exactly the complete inventory).
  const docs = new Map<string, string>();
  for (const kind of RUNTIME_KINDS) {
    // Only a runtime's own MCP client reads initialize instructions: they use its native names.
    const doc = handler.skillDoc(createToolNamer(kind, [...known], { nativeMcp: true }));
    if (Buffer.byteLength(doc, 'utf8') > MAX_INSTRUCTIONS_BYTES) throw new Error(`the ${kind} skill doc exceeds ${MAX_INSTRUCTIONS_BYTES} bytes`);
    docs.set(kind, doc);
  }
  const instructions = (kind: string) => docs.get(isRuntimeKind(kind) ? kind : 'command')!;
  const withDoc = (kind: string, r: Record<string, unknown>) => {
    const doc = instructions(kind);
    return JSON.stringify(doc === '' ? r : { ...r, instructions: doc });
  };
  const initJson = new Map<string, string>(); // key: version + '\n' + kind
  const discoverJson = new Map<string, string>();
  for (const kind of RUNTIME_KINDS) {
    for (const v of SUPPORTED_PROTOCOL_VERSIONS) initJson.set(`${v}\n${kind}`, withDoc(kind, { protocolVersion: v, capabilities, serverInfo }));
    const doc = instructions(kind);
    const d: Record<string, unknown> = { supportedVersions: [...ALL_PROTOCOL_VERSIONS], capabilities };
    if (doc !== '') d.instructions = doc;
    discoverJson.set(kind, JSON.stringify({ ...d, ttlMs: DISCOVER_TTL_MS, cacheScope: DISCOVER_CACHE_SCOPE, resultType: 'complete', _meta: { [SERVER_INFO_KEY]: serverInfo } }));
  }
  const kindOf = (k: string) => (isRuntimeKind(k) ? k : 'command');

  async function runTool(id: JsonRpcId, name: string, args: unknown, site: CallSite, modern: boolean): Promise<string> {
    try {
      const json = serializeWithinBudget(await handler.callTool(site.ctx(), site.agentId, name, args ?? {}));
      // 2026: every result says it is complete; the marker is framing and not counted against the tool's budget.
      return resultResponse(id, modern ? `{"resultType":"complete",${json.slice(1)}` : json);
    } catch (e) {
      if (e instanceof UnknownToolError) return errorResponse(id, INVALID_PARAMS, 'unknown tool');
      // Security invariant: internal causes are logged by class only and never returned.
      opts.log.error({ tool: name, err: e instanceof Error ? e.name : typeof e }, 'tool call failed');
      return errorResponse(id, INTERNAL_ERROR, 'internal error');
    }
  }

  function callTool(id: JsonRpcId, params: unknown, site: CallSite, modern: boolean): Answer {
    if (!isObject(params) || typeof params.name !== 'string') return errorResponse(id, INVALID_PARAMS, 'tools/call needs params.name');
    const args = params.arguments;
    if (args !== undefined && !isObject(args)) return errorResponse(id, INVALID_PARAMS, 'tools/call params.arguments must be an object');
    // Security invariant: an unknown tool fails closed before any context or product call exists.
    if (!known.has(params.name)) return errorResponse(id, INVALID_PARAMS, 'unknown tool');
    return runTool(id, params.name, args, site, modern);
  }

  return {
    toolsListJson,
    instructions,
    dispatch(id, method, params, site) {
      switch (method) {
        case 'tools/call':
          return callTool(id, params, site, false);
        case 'tools/list':
          if (params !== undefined && !isObject(params)) return errorResponse(id, INVALID_PARAMS, 'tools/list params must be an object');
          return resultResponse(id, toolsListJson);
        case 'ping':
          return resultResponse(id, '{}');
        case 'initialize': {
          if (!isObject(params) || typeof params.protocolVersion !== 'string') return errorResponse(id, INVALID_PARAMS, 'initialize needs params.protocolVersion');
          const v = isLegacyProtocolVersion(params.protocolVersion) ? params.protocolVersion : LATEST_PROTOCOL_VERSION;
          return resultResponse(id, initJson.get(`${v}\n${kindOf(site.runtimeKind)}`)!);
        }
        default:
          return errorResponse(id, METHOD_NOT_FOUND, 'method not found');
      }
    },
    dispatchModern(id, method, params, site) {
      // selectEra has checked params is an object carrying a valid _meta envelope.
      switch (method) {
        case 'tools/call':
          return callTool(id, params, site, true);
        case 'tools/list':
          return resultResponse(id, modernToolsListJson);
        case 'server/discover':
          return resultResponse(id, discoverJson.get(kindOf(site.runtimeKind))!);
        default:
          // 2026-07-28 has no initialize and no ping; the route sends this with HTTP 404 (isModernMethod).
          return errorResponse(id, METHOD_NOT_FOUND, 'method not found');
      }
    },
  };
}
