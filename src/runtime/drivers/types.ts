// Owns the runtime-driver contract: the runtime kinds, what prepareRuntime takes, and the launch plan it returns.

/** The runtime kinds `agentteam runtime start --runtime` accepts (ARCHITECTURE §1). */
export const RUNTIME_KINDS = ['claude', 'codex', 'opencode', 'kimi', 'command'] as const;
export type RuntimeKind = (typeof RUNTIME_KINDS)[number];

/** The MCP server name every runtime sees; model-visible tool names derive from it (mcp__agentteam__<tool>). */
export const MCP_SERVER_NAME = 'agentteam';
/** The env var holding the MCP bearer. Drivers only ever write this NAME into config, never its value. */
export const MCP_TOKEN_ENV = 'AGENTTEAM_MCP_TOKEN';

export interface PrepareOptions {
  /** The user's CMD ARGS after `--`; empty means "run the kind's own binary found on PATH". */
  command: string[];
  workdir: string;
  /** A private 0700 directory for this run's config files, created (and later removed) by the caller. */
  runDir: string;
  /** The agent's MCP Streamable HTTP endpoint. */
  mcpUrl: string;
  /** The runtime's assembled environment; only PATH is read here (to find the kind's binary). */
  env: Record<string, string>;
}

export interface RuntimePlan {
  command: string;
  args: string[];
  /** Config files written into runDir (each 0600, none holding a secret). */
  files: string[];
  /** Extra env for the runtime process, on top of the caller's assembled env. */
  envAdd?: Record<string, string>;
}

/** One runtime kind as data: its binary, how to install it, and how to wire it to the MCP endpoint. */
export interface RuntimeDriver {
  kind: RuntimeKind;
  /** Executable names that mean "this is the kind's own binary" (first one is looked up on PATH); empty for `command`. */
  binaries: readonly string[];
  /** One-line install instruction shown when the binary is missing. */
  install: string;
  /**
   * Wires the runtime to the MCP endpoint. `own` is true when argv[0] is the kind's binary (so flags may be
   * inserted right after it); config files go through `writeFile`.
   */
  configure(ctx: DriverContext): Promise<DriverWiring>;
}

export interface DriverContext {
  opts: PrepareOptions;
  own: boolean;
  /** Writes `name` inside runDir with mode 0600 (exclusive create) and returns its path. */
  writeFile(name: string, content: string): Promise<string>;
}

export interface DriverWiring {
  /** Flags inserted right after the binary name (ignored unless `own`). */
  insertArgs?: string[];
  envAdd?: Record<string, string>;
}
