// Owns runtime tool names (spec §Runtime Tool Names): raw tool ↔ model-visible name per runtime kind.
export const RUNTIME_KINDS = ['claude', 'codex', 'kimi', 'opencode', 'command'] as const;
export type RuntimeKind = (typeof RUNTIME_KINDS)[number];

export const MCP_SERVER_NAME = 'agentteam';
const MODEL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function isRuntimeKind(v: unknown): v is RuntimeKind {
  return typeof v === 'string' && (RUNTIME_KINDS as readonly string[]).includes(v);
}

/** Maps raw inventory names to one runtime's display convention and back. */
export interface ToolNamer {
  readonly kind: RuntimeKind;
  /** e.g. message_send → mcp__agentteam__message_send (Claude/Kimi/command), agentteam__message_send (Codex), agentteam_message_send (OpenCode). */
  toModel(raw: string): string;
  /** The raw tool behind a model-visible name, or null when the name is not one of ours. */
  fromModel(name: string): { server: typeof MCP_SERVER_NAME; tool: string } | null;
}

/**
 * Codex's one model-visible form: a turn's tools are the codex-turn helper's app-server dynamic namespace `agentteam`
 * (the gate, spec §Codex delegated-child effect gate), which code mode calls as `tools.agentteam__<tool>`. The spec's
 * Claude/Codex style `mcp__agentteam__<tool>` cannot be a Codex dynamic tool: Codex 0.169.0 refuses thread/start with
 * "dynamic tool namespace is reserved" (namespace `mcp__agentteam`) and "dynamic tool name is reserved" (a flat
 * `mcp__agentteam__<tool>`), the prefix being its own MCP servers'. The helper and the prompt both use this prefix.
 */
export const CODEX_TOOL_PREFIX = `${MCP_SERVER_NAME}__`;

/**
 * Model-visible prefixes per kind; the first is what the runtime shows the model. The spec's example OpenCode style is
 * `mcp_agentteam_<tool>`, but OpenCode 1.18 sends `agentteam_<tool>` to the model (captured in test/runtimes/opencode.test.ts),
 * so OpenCode guidance uses the observed name and both forms translate back.
 */
function prefixesFor(kind: RuntimeKind, nativeMcp: boolean): readonly string[] {
  if (kind === 'codex' && !nativeMcp) return [CODEX_TOOL_PREFIX];
  return kind === 'opencode' ? [`${MCP_SERVER_NAME}_`, `mcp_${MCP_SERVER_NAME}_`] : [`mcp__${MCP_SERVER_NAME}__`];
}

/**
 * Builds the namer for a runtime kind over the complete inventory. `nativeMcp` names tools as a runtime's own MCP client
 * shows them to its model, for the instructions the MCP route serves in `initialize`: only a native MCP client reads
 * those, and for Codex that is a hand-run `codex` outside a turn (`mcp__agentteam__<tool>`, ungated; README
 * "Delegated children"). Turns (the prompt compiler) and the Codex gate use the default.
 * Throws when any model-visible name
 * would exceed 64 characters or leave ^[a-zA-Z0-9_-]+$, so a bad inventory fails at construction, not in a model turn.
 */
export function createToolNamer(kind: RuntimeKind, inventory: readonly string[], o: { nativeMcp?: boolean } = {}): ToolNamer {
  if (!isRuntimeKind(kind)) throw new Error(`unknown runtime kind`);
  const prefixes = prefixesFor(kind, o.nativeMcp === true);
  const prefix = prefixes[0]!;
  const raw = new Set(inventory);
  for (const name of raw) {
    for (const p of prefixes) if (!MODEL_NAME.test(p + name)) throw new Error(`tool name ${JSON.stringify(name)} is not a valid model-visible name for ${kind}`);
  }
  return {
    kind,
    toModel(name) {
      if (!raw.has(name)) throw new Error(`tool ${JSON.stringify(name)} is not in the inventory`);
      return prefix + name;
    },
    fromModel(name) {
      for (const p of prefixes) {
        if (!name.startsWith(p)) continue;
        const tool = name.slice(p.length);
        if (raw.has(tool)) return { server: MCP_SERVER_NAME, tool };
      }
      return null;
    },
  };
}
