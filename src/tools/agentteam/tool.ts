// Owns the shape of one agentteam tool: data (the MCP definition) plus a handler, and the shared schema pieces.
import type { McpToolDef, McpToolResult, ToolContext } from '../../wire/mcp/handler.js';
import type { AttachmentDeps } from './attachment-budget.js';

/** What the composite handler is built with (the composition root wires it once). */
export type AgentteamDeps = AttachmentDeps;

export interface AgentteamTool {
  readonly def: McpToolDef;
  /** `args` has already passed the tool's inputSchema (compiled once per handler). */
  run(ctx: ToolContext, args: Record<string, unknown>, deps: AgentteamDeps): Promise<McpToolResult>;
}

/** structuredContent of an isError result. */
const TOOL_ERROR = {
  type: 'object',
  properties: { code: { type: 'string' }, message: { type: 'string' }, hint: { type: 'string' } },
  required: ['code', 'message'],
} as const;

/** An output schema that admits the success shape or the tool-error shape (isError results carry structuredContent too). */
export function outputSchema(success: Record<string, unknown>): McpToolDef['outputSchema'] {
  return { type: 'object', anyOf: [{ type: 'object', ...success }, TOOL_ERROR] };
}

export const TARGET_PROP = { type: 'string', description: 'exact target, e.g. channel:general' } as const;
