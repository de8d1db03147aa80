// Owns runtime environment assembly: stripping every daemon-owned variable, injecting one canonical pair, scrubbing our own env.
import { delimiter, isAbsolute } from 'node:path';

/** The canonical variables the daemon injects into a runtime it launches. */
export const CANONICAL_VARS = {
  execBaseUrl: 'AGENTTEAM_EXEC_BASE_URL',
  execTokenFile: 'AGENTTEAM_EXEC_TOKEN_FILE',
  mcpUrl: 'AGENTTEAM_MCP_URL',
  mcpToken: 'AGENTTEAM_MCP_TOKEN',
} as const;

/**
 * Daemon-owned name families, compared after upper-casing and removing every non-alphanumeric character, so
 * `AGENTTEAM_EXEC_TOKEN`, `agentteam_exec_token`, `AGENT_TEAM_EXEC_TOKEN`, `AgentTeam-Exec-Token` and
 * `AGENTTEAM.EXEC.TOKEN` all match. Families:
 * - AGENTTEAM_EXEC*  — canonical Exec vars and every retired Exec spelling (…_TOKEN, …_URL, …_TOKEN_PATH, …_CREDENTIAL…);
 * - AGENTTEAM_EXT*   — retired Extension spellings (AGENTTEAM_EXT_*, AGENTTEAM_EXTENSION_*);
 * - AGENTTEAM_MCP*   — the MCP URL/token pair and any variant of it.
 * Not daemon-owned (kept): AGENTTEAM_HOME, AGENTTEAM_LOG_LEVEL and other non-credential settings.
 */
const OWNED_PREFIXES = ['AGENTTEAMEXEC', 'AGENTTEAMEXT', 'AGENTTEAMMCP'] as const;

/** True when `name` is a daemon-owned variable (canonical or retired, any case or separator). */
export function isDaemonOwnedVar(name: string): boolean {
  const folded = name.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return OWNED_PREFIXES.some((p) => folded.startsWith(p));
}

export interface RuntimeEnvAdditions {
  execBaseUrl: string;
  execTokenFile: string;
  mcpUrl: string;
  mcpToken: string;
  binDir: string;
}

/**
 * Builds a runtime's environment: every daemon-owned variable of `base` is dropped (ambient, shell-captured, mixed-case,
 * retired), then exactly one canonical Exec base/file pair and one MCP url/token pair are appended, and `binDir` is
 * put first on PATH. `AGENTTEAM_EXEC_TOKEN` is never set: the Exec bearer lives only in the private token file.
 */
export function assembleRuntimeEnv(base: NodeJS.ProcessEnv, add: RuntimeEnvAdditions): Record<string, string> {
  if (!isAbsolute(add.execTokenFile)) throw new Error('execTokenFile must be an absolute path');
  if (!isAbsolute(add.binDir)) throw new Error('binDir must be an absolute path');
  const out: Record<string, string> = {};
  let path: string | undefined;
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    // Security invariant: no inherited daemon-owned variable (any spelling) reaches a runtime.
    if (isDaemonOwnedVar(name)) continue;
    if (name.toUpperCase() === 'PATH') {
      if (path === undefined || name === 'PATH') path = value;
      continue;
    }
    out[name] = value;
  }
  const rest = (path ?? '').split(delimiter).filter((p) => p !== '' && p !== add.binDir);
  out.PATH = [add.binDir, ...rest].join(delimiter);
  out[CANONICAL_VARS.execBaseUrl] = add.execBaseUrl;
  out[CANONICAL_VARS.execTokenFile] = add.execTokenFile;
  out[CANONICAL_VARS.mcpUrl] = add.mcpUrl;
  out[CANONICAL_VARS.mcpToken] = add.mcpToken;
  return out;
}

/** Deletes every daemon-owned variable from the daemon's own environment (first thing at start). Returns the names removed. */
export function scrubProcessEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  const removed: string[] = [];
  for (const name of Object.keys(env)) {
    if (isDaemonOwnedVar(name)) {
      delete env[name];
      removed.push(name);
    }
  }
  return removed;
}
