// Owns the agentteam tools of a Codex turn as app-server dynamic tools: the trusted inventory fetched from the daemon,
// the namespace offered to Codex, and each `item/tool/call` gated by its provider thread id before the helper itself
// makes the AgentTeam MCP HTTP request (spec §Codex delegated-child effect gate).
//
// Why dynamic tools (checked against `codex app-server generate-ts --experimental`, @openai/codex 0.169.0): a
// ThreadStartParams `dynamicTools` entry is executed by the client: Codex sends the server request `item/tool/call`
// with DynamicToolCallParams {threadId, turnId, callId, namespace, tool, arguments} and waits for {contentItems,
// success}. The client therefore sees the calling thread before any request to the daemon exists, and it alone holds
// the MCP bearer: the turn's codex gets no `mcp_servers.agentteam` entry and no AGENTTEAM_MCP_* variable, so neither
// Codex's own MCP client nor a model-run command can reach the MCP endpoint around the gate. (Native MCP calls run
// inside Codex's own MCP client, which asks for approval only as Codex's approval configuration says, so an approval
// request cannot be the enforcement point.)
import { allowed, CHILD_DENIED_TEXT, decide, EffectInventory, type GateDecision, type InventoryTool } from '../../wire/mcp/child-gate.js';
import type { RateLimitedLogger } from '../../shared/rate-limited-log.js';
import { CODEX_TOOL_PREFIX } from '../../wire/mcp/naming.js';
import { MCP_SERVER_NAME } from './types.js';

/**
 * The namespace Codex offers the model, raw names inside; code mode shows them as `agentteam__<tool>`, the Codex name
 * the prompt uses too (wire/mcp/naming.ts CODEX_TOOL_PREFIX says why it is not `mcp__agentteam__<tool>`).
 */
export const DYNAMIC_NAMESPACE = MCP_SERVER_NAME;

export interface McpTool extends InventoryTool {
  readonly description?: string;
  readonly inputSchema?: unknown;
}

/** One JSON-RPC POST to the agent's MCP endpoint with the runtime's bearer; returns `result` or throws. */
export async function mcpRequest(url: string, token: string, method: string, params: object, signal?: AbortSignal): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal,
  });
  // Security invariant: a failure names the status only; never the URL's credentials, headers or the bearer.
  if (res.status !== 200) throw new Error(`the AgentTeam MCP endpoint answered ${res.status} to ${method}`);
  const body = (await res.json()) as { result?: Record<string, unknown>; error?: { code?: number; message?: string } };
  if (body.error) throw Object.assign(new Error(body.error.message ?? 'error'), { rpcCode: body.error.code });
  return body.result ?? {};
}

/** The trusted inventory: the daemon's own tools/list for this runtime's credential (never the model's view). */
export async function fetchInventory(url: string, token: string): Promise<McpTool[]> {
  const r = await mcpRequest(url, token, 'tools/list', {});
  if (!Array.isArray(r.tools)) throw new Error('tools/list returned no tools');
  return r.tools as McpTool[];
}

/** The ThreadStartParams.dynamicTools value: one namespace holding every inventory tool under its raw name. */
export function dynamicToolSpecs(tools: readonly McpTool[]): object[] {
  return [
    {
      type: 'namespace',
      name: DYNAMIC_NAMESPACE,
      description: 'AgentTeam tools',
      tools: tools.map((t) => ({ type: 'function', name: t.name, description: t.description ?? '', inputSchema: t.inputSchema ?? { type: 'object' } })),
    },
  ];
}

/** The raw tool a dynamic call names: our namespace + raw name, or the flat Codex name `agentteam__<tool>`; else undefined. */
export function rawToolName(namespace: unknown, tool: unknown): string | undefined {
  if (typeof tool !== 'string') return undefined;
  if (namespace === DYNAMIC_NAMESPACE) return tool;
  if ((namespace === null || namespace === undefined) && tool.startsWith(CODEX_TOOL_PREFIX)) return tool.slice(CODEX_TOOL_PREFIX.length);
  return undefined;
}

/** The gate's decisions: the shared child rule's, and every call after the turn ended. */
export type CodexGateDecision = GateDecision | 'deny-turn-ended';

type ContentItem = { type: 'inputText'; text: string };
export interface DynamicToolCallResponse {
  contentItems: ContentItem[];
  success: boolean;
}

const failed = (text: string): DynamicToolCallResponse => ({ contentItems: [{ type: 'inputText', text }], success: false });

export interface ToolGateDeps {
  inventory: readonly McpTool[];
  /** The session's primary thread id (thread/start or thread/resume); undefined until known: then nobody is primary. */
  primaryThreadId: () => string | undefined;
  /** Makes the AgentTeam MCP `tools/call` request; called only after the gate allowed the call. */
  callTool: (name: string, args: unknown) => Promise<Record<string, unknown>>;
  diag: RateLimitedLogger;
}

/** Answers Codex's `item/tool/call` requests: gate first, then (only if allowed) the MCP request. */
export class CodexToolGate {
  private readonly inventory: EffectInventory;
  /** Child threads Codex announced (thread/started with a parent): for the log only; the rule is "not the primary". */
  private readonly parents = new Map<string, string>();
  private closed = false;

  constructor(private readonly deps: ToolGateDeps) {
    this.inventory = new EffectInventory(deps.inventory);
  }

  /** Records a `thread/started` thread's parent (Thread.parentThreadId, or SessionSource subAgent.thread_spawn). */
  noteThread(thread: unknown): void {
    const t = thread as { id?: unknown; parentThreadId?: unknown; source?: { subAgent?: { thread_spawn?: { parent_thread_id?: unknown } } } } | undefined;
    const parent = t?.parentThreadId ?? t?.source?.subAgent?.thread_spawn?.parent_thread_id;
    if (typeof t?.id === 'string' && typeof parent === 'string' && this.parents.size < 1024) this.parents.set(t.id, parent);
  }

  /** The primary thread's turn completed: from now on every call, the primary's included, is refused. */
  close(): void {
    this.closed = true;
  }

  async handle(params: Record<string, unknown> | undefined): Promise<DynamicToolCallResponse> {
    const threadId = typeof params?.threadId === 'string' ? params.threadId : '';
    const tool = rawToolName(params?.namespace, params?.tool);
    const primary = threadId !== '' && threadId === this.deps.primaryThreadId();
    // Security invariant: the caller's identity is the provider thread id; every thread but the primary is a
    // delegated child and may call only tools the trusted inventory declares readOnlyHint === true.
    // Security invariant: nothing runs after the turn ended (a child left running cannot act once its leader is done).
    const decision: CodexGateDecision = this.closed ? 'deny-turn-ended' : tool === undefined ? 'deny-unknown' : decide(this.inventory, primary, tool);
    this.log(threadId, tool ?? String(params?.tool ?? ''), decision);
    if (decision === 'deny-turn-ended') return failed(primary ? 'the turn has ended' : CHILD_DENIED_TEXT);
    if (!allowed(decision)) return failed(primary ? 'unknown tool' : CHILD_DENIED_TEXT);
    try {
      const r = await this.deps.callTool(tool!, params?.arguments ?? {});
      const content = Array.isArray(r.content) ? (r.content as { type?: string; text?: string }[]) : [];
      const text = content.filter((c) => c?.type === 'text' && typeof c.text === 'string').map((c) => c.text!).join('\n');
      return { contentItems: [{ type: 'inputText', text }], success: r.isError !== true };
    } catch (e) {
      const code = (e as { rpcCode?: unknown }).rpcCode;
      return failed(code === -32602 ? 'unknown tool' : 'the AgentTeam tool call failed');
    }
  }

  private log(threadId: string, tool: string, decision: CodexGateDecision): void {
    const role = threadId === this.deps.primaryThreadId() ? 'primary' : 'child';
    const fields: Record<string, unknown> = { threadId, role, tool: tool.slice(0, 128), decision };
    const parent = this.parents.get(threadId);
    if (parent) fields.parentThreadId = parent;
    this.deps.diag.warn(`codex-gate:${decision}:${role}`, fields, 'codex tool gate decision');
  }
}
