// Owns runtime environment assembly: stripping every AgentTeam and secret-bearing variable, injecting the canonical ones, scrubbing our own env.
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

const fold = (name: string) => name.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** True when `name` is a daemon-owned variable (canonical or retired, any case or separator). */
export function isDaemonOwnedVar(name: string): boolean {
  const folded = fold(name);
  return OWNED_PREFIXES.some((p) => folded.startsWith(p));
}

/** Variables the daemon reads a secret from (compared folded). Every one also starts with AGENTTEAM; listed so a new one is not missed. */
export const SECRET_SOURCE_VARS = ['AGENTTEAM_SERVER_ADMIN_TOKEN'] as const;
const SECRET_SOURCES = new Set(SECRET_SOURCE_VARS.map(fold));

/**
 * True when `name` must never reach a runtime from the daemon's environment: every AGENTTEAM* name in any case or
 * punctuation (AGENTTEAM_HOME, AGENT_TEAM_SERVER_ADMIN_TOKEN, agentteam.x …) and every secret-source variable.
 */
export function isRuntimeExcludedVar(name: string): boolean {
  const folded = fold(name);
  return folded.startsWith('AGENTTEAM') || SECRET_SOURCES.has(folded);
}

export interface RuntimeEnvAdditions {
  execBaseUrl: string;
  execTokenFile: string;
  mcpUrl: string;
  mcpToken: string;
  binDir: string;
  /** Daemon-provided canonical variables appended after the scrub (e.g. a turn's AGENTTEAM_TURN_*). */
  canonical?: Readonly<Record<string, string>>;
  /** Secret values the daemon holds (tokens, credentials): any inherited variable whose value contains one is dropped. */
  daemonSecrets?: Iterable<string>;
}

/**
 * Builds a runtime's environment: every AGENTTEAM* variable of `base` (any case or punctuation), every secret-source
 * variable and every variable carrying a daemon secret value is dropped; then exactly one canonical Exec base/file pair,
 * one MCP url/token pair and the daemon's `canonical` extras are appended, and `binDir` is put first on PATH.
 * `AGENTTEAM_EXEC_TOKEN` is never set: the Exec bearer lives only in the private token file.
 */
export function assembleRuntimeEnv(base: NodeJS.ProcessEnv, add: RuntimeEnvAdditions): Record<string, string> {
  if (!isAbsolute(add.execTokenFile)) throw new Error('execTokenFile must be an absolute path');
  if (!isAbsolute(add.binDir)) throw new Error('binDir must be an absolute path');
  const secrets = [...(add.daemonSecrets ?? [])].filter((v) => v.length >= 8);
  const out: Record<string, string> = {};
  let path: string | undefined;
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    // Security invariant: no inherited AgentTeam variable (any spelling) and no daemon secret value reaches a runtime.
    if (isRuntimeExcludedVar(name) || secrets.some((v) => value.includes(v))) continue;
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
  for (const [name, value] of Object.entries(add.canonical ?? {})) {
    if (!fold(name).startsWith('AGENTTEAM') || isDaemonOwnedVar(name)) throw new Error(`not a daemon-provided canonical variable: ${name}`);
    out[name] = value;
  }
  return out;
}

/**
 * Deletes every daemon-owned and secret-source variable from the daemon's own environment (first thing at start, after
 * the options were read), so no child or worker inherits them. Returns the names removed.
 */
export function scrubProcessEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  const removed: string[] = [];
  for (const name of Object.keys(env)) {
    if (isDaemonOwnedVar(name) || SECRET_SOURCES.has(fold(name))) {
      delete env[name];
      removed.push(name);
    }
  }
  return removed;
}
