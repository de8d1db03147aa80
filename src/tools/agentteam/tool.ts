// Owns the shape of one agentteam tool: data (the MCP definition) plus a handler, and the shared schema pieces.
import type { McpToolDef, McpToolResult, ToolContext } from '../../wire/mcp/handler.js';

export interface AgentteamTool {
  readonly def: McpToolDef;
  /** `args` has already passed the tool's inputSchema (compiled once per handler). */
  run(ctx: ToolContext, args: Record<string, unknown>): Promise<McpToolResult>;
}

/** structuredContent of an isError result ({code, message, hint?}); kept to its required keys: it is sent on every tools/list. */
const TOOL_ERROR = { required: ['code', 'message'] } as const;

/** An output schema that admits the success shape or the tool-error shape (isError results carry structuredContent too). */
export function outputSchema(success: Record<string, unknown>): McpToolDef['outputSchema'] {
  return { type: 'object', anyOf: [success, TOOL_ERROR] };
}

export const TARGET_PROP = { type: 'string', description: 'e.g. channel:general' } as const;
