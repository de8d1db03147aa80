// Owns the `codex` driver: Codex gets `-c` overrides (the MCP url and bearer env var, a non-login shell, a sandbox that
// reaches only the daemon's loopback host); a turn runs through `codex app-server` via the codex-turn helper.
//
// Checked against Codex's docs, source and behaviour (stored copies of openai/codex, `codex --help`, `codex features
// list`, `codex app-server generate-ts`, and real runs of @openai/codex 0.169.0 in test/runtimes/codex.test.ts):
// - A Streamable HTTP server is `[mcp_servers.<name>] url = …`, and `bearer_token_env_var` names the env var whose
//   value is sent as `Authorization: Bearer …` (openai/codex PR #4317, discussion #30870; Codex rejects an inline
//   bearer). `-c key=value` overrides config, the value parsed as TOML; Codex has no MCP-config file flag.
// - `shell_environment_policy.set.<VAR>` adds one key to the policy for model-run commands (dotted: the user's policy
//   is kept); real runs saw AGENTTEAM_MCP_TOKEN empty in the model's shell.
// - `allow_login_shell = false` (core config Permissions: "the model can never use a login shell … omitting `login`
//   defaults to a non-login shell"): a login profile (Debian's /etc/profile) resets PATH and loses the daemon's
//   agentteam bin dir, so `agentteam` was "command not found"; a non-login shell keeps the PATH Codex was given.
// - The sandbox (developers.openai.com/codex/permissions; config docs "[permissions.<name>.network]"): commands get no
//   network by default, loopback included. `default_permissions = "agentteam"` selects our profile, which
//   `extends = ":read-only"` (the filesystem Codex gives an untrusted workdir, as a turn's is) and turns on
//   `network.enabled` with `features.network_proxy`: commands then run in their own network namespace whose only way
//   out is Codex's managed proxy, and its `domains` allow exactly the daemon's loopback host (`allow_local_binding`
//   stays false: no other loopback or private address; a `host:port` key does not narrow it to one port in 0.169.0).
//   `mode = "full"` because Exec calls are POSTs ("limited" allows GET/HEAD/OPTIONS only). The Exec CLI sends through
//   that proxy (src/cli/exec/proxy.ts). A user `sandbox_mode` (or `--sandbox`) replaces profiles, and with it this.
// - Code mode (the default model in 0.169.0): a hand-run codex's MCP tools are a deferred namespace (`Deferred tool
//   namespaces: - mcp__agentteam`), callable from `exec` as `tools.mcp__agentteam__<tool>(…)`; a turn's are the
//   helper's dynamic namespace, `tools.agentteam__<tool>(…)` (the Codex name, wire/mcp/naming.ts CODEX_TOOL_PREFIX).
// - The profile's filesystem table maps absolute paths to "read" | "write" | "none" (developers.openai.com/codex/
//   permissions). Checked with `codex sandbox` 0.169.0 on Linux: a "none" folder hides everything in it, a "write" path
//   inside it is bound again and usable, a "read" path inside it stays hidden. So the home is "none", and the two
//   folders of it a turn's commands need are "write": the agent's Memory clone and its own exec token folder.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../shared/errors.js';
import type { CodexTurnRequest } from './codex-protocol.js';
import { homeSpellings } from './home-deny.js';
import { lastJsonField } from './output.js';
import { MCP_SERVER_NAME, MCP_TOKEN_ENV, MEMORY_DIR_ENV, type PrepareOptions, type RuntimeDriver } from './types.js';

/** The env var naming the exec token file (authz/env.ts); its folder is the one credential folder a run may read. */
const EXEC_TOKEN_FILE_ENV = 'AGENTTEAM_EXEC_TOKEN_FILE';

/** The permission profile this driver defines and selects. */
export const CODEX_PROFILE = 'agentteam';

/** A TOML basic string: JSON's escapes are TOML escapes; TOML also wants DEL escaped. */
export function tomlString(s: string): string {
  return JSON.stringify(s).replace(/\x7f/g, '\\u007F');
}

/** The daemon's host as Codex's proxy matches it: the hostname of the MCP URL, IPv6 without brackets. */
function daemonHost(mcpUrl: string): string {
  return new URL(mcpUrl).hostname.replace(/^\[|\]$/g, '');
}

/**
 * The `-c` overrides; they carry the env var NAME, never the token (see the header for why each is spelled so).
 * `nativeMcp: false` (turns) leaves out the MCP server: the codex-turn helper offers the tools as gated dynamic tools.
 */
export function codexConfigArgs(mcpUrl: string, o: { nativeMcp?: boolean; memoryDir?: string; home?: string; tokenDir?: string } = {}): string[] {
  const p = `permissions.${CODEX_PROFILE}`;
  // Security invariant: the model's commands see nothing of the AgentTeam home but its own Memory clone and token folder.
  const fs: [string, 'none' | 'write'][] = [
    ...(o.home ? homeSpellings(o.home).slice(-1).map((h) => [h, 'none'] as [string, 'none']) : []),
    ...(o.memoryDir ? [[o.memoryDir, 'write'] as [string, 'write']] : []),
    ...(o.home && o.tokenDir ? [[o.tokenDir, 'write'] as [string, 'write']] : []),
  ];
  const native: [string, string][] =
    o.nativeMcp === false
      ? []
      : [
          [`mcp_servers.${MCP_SERVER_NAME}.url`, tomlString(mcpUrl)],
          [`mcp_servers.${MCP_SERVER_NAME}.bearer_token_env_var`, tomlString(MCP_TOKEN_ENV)],
        ];
  const pairs: [string, string][] = [
    ...native,
    // Security invariant: the MCP bearer is for Codex's own MCP client (or the turn helper); the model's shell sees it empty.
    [`shell_environment_policy.set.${MCP_TOKEN_ENV}`, '""'],
    ['allow_login_shell', 'false'],
    ['features.network_proxy', 'true'],
    ['default_permissions', tomlString(CODEX_PROFILE)],
    [`${p}.extends`, tomlString(':read-only')],
    [`${p}.network.enabled`, 'true'],
    [`${p}.network.mode`, tomlString('full')],
    // Security invariant: the model's commands reach the daemon's loopback host through Codex's proxy, and nothing else.
    // An inline table: `-c` splits a dotted path at every `.`, quoted or not, so an IP literal cannot be a path key.
    [`${p}.network.domains`, `{ ${tomlString(daemonHost(mcpUrl))} = "allow" }`],
    // The agent's Memory clone is the one folder outside the workdir its commands may write (Codex keeps `.git` in it
    // read-only, as under every writable root). An absolute-path key in the profile's filesystem table grants it.
    ...(fs.length > 0 ? ([[`${p}.filesystem`, `{ ${fs.map(([k, v]) => `${tomlString(k)} = "${v}"`).join(', ')} }`]] as [string, string][]) : []),
  ];
  return pairs.flatMap(([k, v]) => ['-c', `${k}=${v}`]);
}

/**
 * The codex-turn helper: dist/codex-turn.mjs beside the bundled daemon (dist/cli.mjs), or, run from source, the built
 * one under the repository's dist/. Absent means the package was not built.
 */
export function codexTurnHelper(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const found = [join(here, 'codex-turn.mjs'), join(here, '..', '..', '..', 'dist', 'codex-turn.mjs')].find((c) => existsSync(c));
  if (!found) throw new AppError('internal', 'the codex turn helper (dist/codex-turn.mjs) is missing; run `npm run build`');
  return found;
}

/** The filesystem inputs of one launch: the home, the Memory clone, and the exec token's folder. */
function codexFilesystem(opts: PrepareOptions): { memoryDir?: string; home?: string; tokenDir?: string } {
  const out: { memoryDir?: string; home?: string; tokenDir?: string } = {};
  const memoryDir = opts.env[MEMORY_DIR_ENV];
  if (memoryDir) out.memoryDir = memoryDir;
  if (opts.home) out.home = opts.home;
  const tokenFile = opts.env[EXEC_TOKEN_FILE_ENV];
  if (tokenFile) out.tokenDir = dirname(tokenFile);
  return out;
}

export const codexDriver: RuntimeDriver = {
  kind: 'codex',
  binaries: ['codex'],
  install: 'npm i -g @openai/codex',
  async configure({ opts, own, argv0 }) {
    if (!own) return {};
    const turn = opts.turn;
    // `-c` is a top-level option, so it goes right after the binary, before any subcommand (`codex -c … app-server`).
    const fsOpts = codexFilesystem(opts);
    if (!turn) return { insertArgs: codexConfigArgs(opts.mcpUrl, fsOpts) };
    // A turn is one app-server thread turn (the driver the spec's Codex section assumes): the helper runs
    // `codex -c … app-server`, starts or resumes the thread with the stable part as developerInstructions, and prints
    // the thread id as `{"threadId":…}` lines. Codex gets no native agentteam MCP server: the helper offers the tools
    // as dynamic tools and gates each call by thread (codex-tools.ts), so there is no second path around the gate.
    const request: CodexTurnRequest = { developerInstructions: turn.stable, prompt: turn.prompt };
    if (turn.resumeId) request.resumeId = turn.resumeId;
    if (turn.model) request.model = turn.model;
    return {
      replaceArgv: { command: process.execPath, args: [codexTurnHelper(), argv0, ...codexConfigArgs(opts.mcpUrl, { nativeMcp: false, ...fsOpts })] },
      stdin: JSON.stringify(request),
      resumeIdFrom: (stdout) => lastJsonField(stdout, 'threadId'),
    };
  },
};
