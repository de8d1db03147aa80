// Owns telling AgentTeam's tool calls apart: MCP tools in any runtime's naming, `agentteam exec` actions and surface reads run through a shell.
import { createToolNamer, RUNTIME_KINDS } from '../../wire/mcp/naming.js';

/** What a model-visible tool name or shell command is, for AgentTeam: an inventory tool, an exec action, a help read. */
export interface Classified {
  /** `message_send`, `exec task create`, or a surface read: `exec task --help`, `exec task create --input-schema`. */
  tool: string;
  /** A read of the surface itself (`--help`, a schema), not an action. */
  help: boolean;
}

export const INVENTORY = ['kb_fetch', 'kb_search', 'memory_search', 'message_attachment_read', 'message_history_read', 'message_react', 'message_send'];
const NAMERS = RUNTIME_KINDS.flatMap((k) => [createToolNamer(k, INVENTORY), createToolNamer(k, INVENTORY, { nativeMcp: true })]);
/** `agentteam exec <domain> [<action>] … [--help]`, anywhere in a shell command (paths to the binary included). */
const EXEC = /(?:^|[\s;&|(/])agentteam\s+exec((?:\s+[a-z][a-z0-9-]*){0,2})([^;&|\n]*)/;
/** Shell tools of the runtimes: Claude `Bash`, OpenCode `bash`, Codex `shell`/`exec_command`/`local_shell`. */
export const SHELL_TOOLS = new Set(['Bash', 'bash', 'shell', 'exec_command', 'local_shell', 'shell_command']);

/** The AgentTeam tool behind a model-visible tool name (any runtime's naming), or null. */
export function classifyToolName(name: string): Classified | null {
  for (const n of NAMERS) {
    const hit = n.fromModel(name);
    if (hit) return { tool: hit.tool, help: false };
  }
  return null;
}

/** What a tool call is for AgentTeam (by its model-visible name, or the command a shell tool runs), or null. */
export function classify(name: string, input: unknown): Classified | null {
  return classifyToolName(name) ?? (SHELL_TOOLS.has(name) ? classifyCommand(shellCommand(input) ?? '') : null);
}

/** The AgentTeam exec action (or help read) a shell command runs, or null. */
export function classifyCommand(command: string): Classified | null {
  const m = EXEC.exec(command);
  if (!m) return null;
  const words = m[1]!.trim().split(/\s+/).filter(Boolean);
  const flag = /(?:^|\s)(--help|-h|--input-schema|--output-schema|--error-schema)(?=\s|$)/.exec(m[2]!)?.[1];
  const read = flag === undefined ? (words.length === 0 ? '--help' : undefined) : flag === '-h' ? '--help' : flag;
  return { tool: ['exec', ...words, ...(read ? [read] : [])].join(' '), help: read !== undefined };
}

/** A shell call's command from its input, in any runtime's shape (string, argv array, `cmd`, `command`). */
export function shellCommand(input: unknown): string | null {
  if (typeof input === 'string') {
    try {
      return shellCommand(JSON.parse(input));
    } catch {
      return input;
    }
  }
  if (typeof input !== 'object' || input === null) return null;
  const o = input as Record<string, unknown>;
  const c = o.command ?? o.cmd;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.filter((x) => typeof x === 'string').join(' ');
  return null;
}
