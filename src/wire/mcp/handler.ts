// Owns the McpHandler contract (spec §MCP Transport): tool definitions, results, the call context and the unknown-tool error.
import type { TokenInfo } from '../../authz/types.js';
import type { ServerApi } from '../../server-client/api.js';
import type { ToolNamer } from './naming.js';
import type { TargetKind } from '../../shared/target.js';

/** What a tool may know about the turn its runtime is answering. Never stored in the Exec authorization (spec: no launch target). */
export interface CurrentTurn {
  readonly turnId: string;
  readonly target: string;
  readonly targetType: TargetKind;
  readonly messageId: string;
  readonly authorKind: 'human' | 'agent';
}

/** Behaviour hints; readOnlyHint is required so effect gates never guess (spec §Codex delegated-child effect gate). */
export interface McpToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** One model-visible tool as listed by tools/list (raw name; runtimes map it with a ToolNamer). */
export interface McpToolDef {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>> & { readonly type: 'object' };
  readonly outputSchema?: Readonly<Record<string, unknown>> & { readonly type: 'object' };
  readonly annotations: McpToolAnnotations;
}

export interface McpTextContent {
  type: 'text';
  text: string;
}

/** A tools/call result: structuredContent mirrored as JSON text in content[0]. */
export interface McpToolResult {
  content: McpTextContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What a tool call may use: the immutable token facts, the revocation signal, and the server API bound to the agent. */
export interface ToolContext {
  readonly info: TokenInfo;
  readonly signal: AbortSignal;
  readonly api: ServerApi;
  /** The turn this runtime is answering (session metadata), absent for a runtime started by hand. */
  readonly turn?: CurrentTurn;
}

export interface SkillDocParts {
  /** How to use the tools; identical for every server and agent. */
  readonly stable: string;
  /** The server/agent-specific part (target forms, route facts). */
  readonly route: string;
}

export interface McpHandler {
  /** The complete runtime-visible inventory; never filtered per runtime or session (spec §Invariants). */
  tools(): McpToolDef[];
  /** The only execution entry point; throws UnknownToolError for a name outside the inventory. */
  callTool(ctx: ToolContext, agentId: string, name: string, args: unknown): Promise<McpToolResult>;
  skillDoc(namer: ToolNamer): string;
  skillDocSplit(namer: ToolNamer): SkillDocParts;
}

/** Thrown by callTool for a tool outside the inventory; the transport answers JSON-RPC -32602. */
export class UnknownToolError extends Error {
  constructor(readonly toolName: string) {
    super('unknown tool');
    this.name = 'UnknownToolError';
  }
}
