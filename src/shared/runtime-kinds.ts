// Owns the one list of runtime kinds (ARCHITECTURE §1): what `--runtime` accepts, profiles store and drivers implement.

/** The runtime kinds `agentteam runtime start --runtime` accepts. */
export const RUNTIME_KINDS = ['claude', 'codex', 'opencode', 'kimi', 'command'] as const;
export type RuntimeKind = (typeof RUNTIME_KINDS)[number];
