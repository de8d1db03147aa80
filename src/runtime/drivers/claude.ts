// Owns the `claude` driver: Claude Code gets a --mcp-config JSON in runDir whose header reads the bearer from env.
//
// Checked against Claude Code's docs and behaviour (stored copies, and a real run of @anthropic-ai/claude-code 2.1.328):
// - code.claude.com/docs/en/mcp, "Environment variable expansion in .mcp.json": `${VAR}` and `${VAR:-default}` expand in
//   command, args, env, url and headers; `--mcp-config <configs...>` loads servers from JSON files (`claude --help`).
// - HTTP servers are `{"type":"http","url":…,"headers":{…}}` (docs.anthropic.com …/claude-code/sdk/sdk-mcp, "HTTP/SSE").
// - test/runtimes/claude.test.ts: `claude --mcp-config=F x -p --strict-mcp-config --output-format stream-json
//   --verbose` connected with the expanded bearer and listed mcp__agentteam__<tool> in its init line.
import { MCP_SERVER_NAME, MCP_TOKEN_ENV, type RuntimeDriver } from './types.js';

export const CLAUDE_MCP_CONFIG_FILE = 'claude-mcp.json';

/** The Claude Code MCP config: url plus a `${VAR}` header reference; the token value never reaches the file. */
export function claudeMcpConfig(mcpUrl: string): object {
  return {
    mcpServers: {
      [MCP_SERVER_NAME]: { type: 'http', url: mcpUrl, headers: { Authorization: `Bearer \${${MCP_TOKEN_ENV}}` } },
    },
  };
}

export const claudeDriver: RuntimeDriver = {
  kind: 'claude',
  binaries: ['claude'],
  install: 'npm i -g @anthropic-ai/claude-code',
  async configure({ opts, own, writeFile }) {
    // Another command (a wrapper script) gets only the caller's env; it has no flag to receive the config.
    if (!own) return {};
    const file = await writeFile(CLAUDE_MCP_CONFIG_FILE, JSON.stringify(claudeMcpConfig(opts.mcpUrl), null, 2) + '\n');
    // `--mcp-config <configs...>` is variadic: `--mcp-config F "prompt"` would read the prompt as a second config file
    // (checked on 2.1.328), so the value is attached with `=`, which ends the option.
    return { insertArgs: [`--mcp-config=${file}`] };
  },
};

