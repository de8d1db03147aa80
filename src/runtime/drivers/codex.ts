// Owns the `codex` driver: Codex gets `-c` overrides naming the MCP url and the env var holding the bearer; no file.
//
// Checked against Codex's docs and behaviour (stored copies, and a real run of @openai/codex 0.169.0):
// - Codex config: a Streamable HTTP server is `[mcp_servers.<name>] url = …`, and `bearer_token_env_var` names the env
//   var whose value is sent as `Authorization: Bearer …` (openai/codex PR #4317 and discussion #30870; Codex rejects an
//   inline bearer in config). `codex --help`: `-c key=value` overrides config, the value parsed as TOML.
// - Codex has no standalone MCP-config file flag, so per-run `-c` overrides leave nothing behind (docs.rs codex-wrapper).
// - test/runtimes/codex.test.ts: `codex -c … -c … app-server` answered `mcpServerStatus/list` with the tool and
//   `authStatus: "bearerToken"`, and the endpoint saw the expanded bearer; `command/exec` (the model's command
//   sandbox) saw AGENTTEAM_MCP_TOKEN empty under `shell_environment_policy.set` (policy: inherit, excludes, set, …).
import { MCP_SERVER_NAME, MCP_TOKEN_ENV, type RuntimeDriver } from './types.js';

/** A TOML basic string: JSON's escapes are TOML escapes; TOML also wants DEL escaped. */
export function tomlString(s: string): string {
  return JSON.stringify(s).replace(/\x7f/g, '\\u007F');
}

/**
 * The `-c` overrides: register the agentteam server (they carry the env var NAME, never the token), and blank that var
 * in the environment Codex gives model-run commands. A dotted `set.<VAR>` adds one key to the user's
 * shell_environment_policy instead of replacing it.
 */
export function codexConfigArgs(mcpUrl: string): string[] {
  return [
    '-c',
    `mcp_servers.${MCP_SERVER_NAME}.url=${tomlString(mcpUrl)}`,
    '-c',
    `mcp_servers.${MCP_SERVER_NAME}.bearer_token_env_var=${tomlString(MCP_TOKEN_ENV)}`,
    // Security invariant: the MCP bearer is for Codex's own MCP client; the model's shell sees it empty.
    '-c',
    `shell_environment_policy.set.${MCP_TOKEN_ENV}=""`,
  ];
}

export const codexDriver: RuntimeDriver = {
  kind: 'codex',
  binaries: ['codex'],
  install: 'npm i -g @openai/codex',
  async configure({ opts, own }) {
    // `-c` is a top-level option, so it goes right after the binary, before any subcommand (`codex -c … app-server`).
    return own ? { insertArgs: codexConfigArgs(opts.mcpUrl) } : {};
  },
};
