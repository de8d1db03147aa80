// Owns the `agentteam` composite MCP handler: the message, memory and knowledge tool inventory, input validation compiled once, dispatch, skill docs.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { type McpHandler, type McpToolDef, UnknownToolError } from '../../wire/mcp/handler.js';
import { invalidInput } from './failures.js';
import type { AttachmentDeps } from './attachment-budget.js';
import { messageAttachmentReadTool } from './message-attachment-read.js';
import { messageHistoryRead } from './message-history-read.js';
import { messageReact } from './message-react.js';
import { messageSendTool } from './message-send.js';
import { kbFetch, kbSearch } from './kb.js';
import { memorySearchTool, type MemorySearchPort } from './memory-search.js';
import { renderSkillDoc, renderSkillDocSplit } from './skilldoc.js';
import type { AgentteamTool } from './tool.js';

export interface AgentteamDeps {
  /** The memory owner; without it memory_search is still listed and answers index_unavailable. */
  memory?: MemorySearchPort;
  /** The AgentTeam home (never attachable) and the daemon-wide byte budget; without them attachments fail closed. */
  attachments?: AttachmentDeps;
}

/** The complete inventory in listing order. Exec-owned domains (tasks, reviews, …) are never registered here. */
export function agentteamTools(deps: AgentteamDeps = {}): readonly AgentteamTool[] {
  return [messageSendTool(deps.attachments), messageHistoryRead, messageReact, messageAttachmentReadTool(deps.attachments), memorySearchTool(deps.memory), kbSearch, kbFetch];
}

function describe(e: ErrorObject | undefined): string {
  if (!e) return 'arguments do not match the input schema';
  const where = e.instancePath || '(arguments)';
  const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: unknown }).additionalProperty).slice(0, 64)})` : '';
  return `${where} ${e.message ?? 'is invalid'}${extra}`;
}

export function createAgentteamHandler(deps: AgentteamDeps = {}): McpHandler {
  const tools = agentteamTools(deps);
  const ajv = new Ajv({ strict: true, allErrors: false, useDefaults: true });
  const byName = new Map<string, { tool: AgentteamTool; validate: ValidateFunction }>();
  for (const tool of tools) {
    if (typeof tool.def.annotations?.readOnlyHint !== 'boolean') throw new Error(`tool ${tool.def.name} lacks annotations.readOnlyHint`);
    byName.set(tool.def.name, { tool, validate: ajv.compile(tool.def.inputSchema) });
  }
  const defs: readonly McpToolDef[] = Object.freeze(tools.map((t) => t.def));

  return {
    tools: () => [...defs],
    async callTool(ctx, _agentId, name, args) {
      const entry = byName.get(name);
      // Security invariant: unknown tools fail closed at CallTool, the only execution entry point.
      if (!entry) throw new UnknownToolError(name);
      // Validation mutates only a private copy (ajv applies defaults in place).
      const copy = typeof args === 'object' && args !== null && !Array.isArray(args) ? { ...(args as Record<string, unknown>) } : args;
      if (!entry.validate(copy)) return invalidInput(`invalid arguments: ${describe(entry.validate.errors?.[0])}`, `see the ${name} input schema`);
      return entry.tool.run(ctx, copy as Record<string, unknown>);
    },
    skillDoc: (namer) => renderSkillDoc(defs, namer),
    skillDocSplit: (namer) => renderSkillDocSplit(defs, namer),
  };
}
