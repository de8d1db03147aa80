// Owns MCP method dispatch: initialize (version negotiation), ping, tools/list (precomputed) and tools/call (budgeted).
import type { Logger } from '../../shared/log.js';
import { type McpHandler, type ToolContext, UnknownToolError } from './handler.js';
import { INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, type JsonRpcId, errorResponse, resultResponse } from './jsonrpc.js';
import { serializeWithinBudget } from './resultbudget/budget.js';

/** Revisions we speak; the newest is answered when a client asks for one we do not know. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25'] as const;
export const LATEST_PROTOCOL_VERSION = '2025-11-25';
/** Spec (basic/transports): without an MCP-Protocol-Version header the server assumes 2025-03-26. */
export const DEFAULT_PROTOCOL_VERSION = '2025-03-26';
const SUPPORTED = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);

export function isSupportedProtocolVersion(v: string): boolean {
  return SUPPORTED.has(v);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export interface McpProtocol {
  /** Returns the JSON-RPC response text for one request. `ctx` is built lazily, only for tools/call. */
  dispatch(id: JsonRpcId, method: string, params: unknown, ctx: () => ToolContext, agentId: string): Promise<string>;
  /** The precomputed tools/list result JSON (for tests and size measurement). */
  readonly toolsListJson: string;
}

export function createMcpProtocol(handler: McpHandler, opts: { version: string; log: Logger }): McpProtocol {
  // Precomputed once: the complete inventory, identical for every runtime and route (spec §Invariants).
  const toolsListJson = JSON.stringify({ tools: handler.tools() });
  const known = new Set(handler.tools().map((t) => t.name));
  const initJson = new Map<string, string>();
  for (const v of SUPPORTED_PROTOCOL_VERSIONS) {
    initJson.set(v, JSON.stringify({ protocolVersion: v, capabilities: { tools: { listChanged: false } }, serverInfo: { name: 'agentteam', version: opts.version } }));
  }

  async function callTool(id: JsonRpcId, params: unknown, ctx: () => ToolContext, agentId: string): Promise<string> {
    if (!isObject(params) || typeof params.name !== 'string') return errorResponse(id, INVALID_PARAMS, 'tools/call needs params.name');
    const args = params.arguments;
    if (args !== undefined && !isObject(args)) return errorResponse(id, INVALID_PARAMS, 'tools/call params.arguments must be an object');
    // Security invariant: an unknown tool fails closed before any context or product call exists.
    if (!known.has(params.name)) return errorResponse(id, INVALID_PARAMS, 'unknown tool');
    try {
      const result = await handler.callTool(ctx(), agentId, params.name, args ?? {});
      return resultResponse(id, serializeWithinBudget(result));
    } catch (e) {
      if (e instanceof UnknownToolError) return errorResponse(id, INVALID_PARAMS, 'unknown tool');
      // Security invariant: internal causes are logged by class only and never returned.
      opts.log.error({ tool: params.name, err: e instanceof Error ? e.name : typeof e }, 'tool call failed');
      return errorResponse(id, INTERNAL_ERROR, 'internal error');
    }
  }

  return {
    toolsListJson,
    async dispatch(id, method, params, ctx, agentId) {
      switch (method) {
        case 'tools/call':
          return callTool(id, params, ctx, agentId);
        case 'tools/list':
          if (params !== undefined && !isObject(params)) return errorResponse(id, INVALID_PARAMS, 'tools/list params must be an object');
          return resultResponse(id, toolsListJson);
        case 'ping':
          return resultResponse(id, '{}');
        case 'initialize': {
          if (!isObject(params) || typeof params.protocolVersion !== 'string') return errorResponse(id, INVALID_PARAMS, 'initialize needs params.protocolVersion');
          const json = initJson.get(params.protocolVersion) ?? initJson.get(LATEST_PROTOCOL_VERSION)!;
          return resultResponse(id, json);
        }
        default:
          return errorResponse(id, METHOD_NOT_FOUND, 'method not found');
      }
    },
  };
}
