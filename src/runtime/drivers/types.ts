// Owns the runtime-driver contract: what prepareRuntime takes and the launch plan it returns (the kinds live in shared/runtime-kinds.ts).
import type { TargetKind } from '../../shared/target.js';
import { RUNTIME_KINDS, type RuntimeKind } from '../../shared/runtime-kinds.js';

export { RUNTIME_KINDS, type RuntimeKind };

/** The MCP server name every runtime sees; model-visible tool names derive from it (mcp__agentteam__<tool>). */
export const MCP_SERVER_NAME = 'agentteam';
/** The env var holding the MCP bearer. Drivers only ever write this NAME into config, never its value. */
export const MCP_TOKEN_ENV = 'AGENTTEAM_MCP_TOKEN';
export { MEMORY_DIR_ENV } from '../../memorysearch/clone.js';
/**
 * The env var holding the child-scoped MCP bearer (effect read-only, revoked with the runtime's authorization): a
 * runtime that starts a delegated child as its own process gives it this value as the child's AGENTTEAM_MCP_TOKEN.
 */
export const MCP_CHILD_TOKEN_ENV = 'AGENTTEAM_MCP_CHILD_TOKEN';

export interface PrepareOptions {
  /** The user's CMD ARGS after `--`; empty means "run the kind's own binary found on PATH". */
  command: string[];
  workdir: string;
  /** A private 0700 directory for this run's config files, created (and later removed) by the caller. */
  runDir: string;
  /** The agent's MCP Streamable HTTP endpoint. */
  mcpUrl: string;
  /** The AgentTeam home (credentials, other agents' state): every driver denies it in its runtime's own permissions. */
  home?: string;
  /** The runtime's assembled environment; only PATH is read here (to find the kind's binary). */
  env: Record<string, string>;
  /** Present when the daemon runs one turn of an agent session (ARCHITECTURE §9); absent for `runtime start` by hand. */
  turn?: TurnInput;
}

/** The exact-target types a turn can have (spec §Invariants: the reply goes to exactly this target). */
export type TurnTargetType = TargetKind;

/**
 * One turn as a driver sees it. The session engine (src/sessions/) compiles the prompt parts in the runtime's tool
 * naming; the driver delivers `stable` through the runtime's own instruction mechanism and `prompt` as the turn's
 * user message, and resumes the runtime's own session when `resumeId` is set.
 */
export interface TurnInput {
  turnId: string;
  target: string;
  targetType: TurnTargetType;
  messageId: string;
  /** Stable instructions: the skill doc's stable part plus the Dispatcher prompt summary. */
  stable: string;
  /** The route part and the turn part (who wrote what, where; reply to exactly `target`). */
  prompt: string;
  /** The runtime's own session/thread id from this session's previous turn. */
  resumeId?: string;
  /** The agent's configured model; absent means the runtime's default. */
  model?: string;
}

export interface RuntimePlan {
  command: string;
  args: string[];
  /** Config files written into runDir (each 0600, none holding a secret). */
  files: string[];
  /** Extra env for the runtime process, on top of the caller's assembled env. */
  envAdd?: Record<string, string>;
  /** Written to the process's stdin, which is then closed (turns only); stdin is otherwise not connected. */
  stdin?: string;
  /** Reads the runtime's own session id from the turn's complete stdout, so the next turn can resume it. */
  resumeIdFrom?: (stdout: string) => string | undefined;
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
  /** The resolved argv[0]: the user's, or the kind's binary found on PATH (a protocol helper runs it itself). */
  argv0: string;
  /** Writes `name` inside runDir with mode 0600 (exclusive create) and returns its path. */
  writeFile(name: string, content: string): Promise<string>;
}

export interface DriverWiring {
  /** Flags inserted right after the binary name (ignored unless `own`). */
  insertArgs?: string[];
  /** Arguments appended after the user's own (turns: e.g. the prompt flag). */
  appendArgs?: string[];
  /** Replaces argv entirely (e.g. a turn driven through a protocol helper instead of the binary's CLI). */
  replaceArgv?: { command: string; args: string[] };
  envAdd?: Record<string, string>;
  stdin?: string;
  resumeIdFrom?: (stdout: string) => string | undefined;
}
