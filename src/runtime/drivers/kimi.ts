// Owns the `kimi` driver: Kimi CLI gets `--mcp-config-file` pointing at an MCP JSON in runDir.
//
// Checked against Kimi CLI's docs and source (stored copies; not run here: Kimi CLI is a Python tool, not on npm):
// - moonshotai.github.io/kimi-cli …/customization/mcp: the file is `{"mcpServers":{name:{"url":…,"headers":{…}}}}`,
//   loaded per run with `kimi --mcp-config-file PATH`; `kimi mcp add --transport http` writes `"transport":"http"`.
// - MoonshotAI/kimi-cli src/kimi_cli/cli/__init__.py reads the file with json.loads and no env-var expansion, so the
//   `${AGENTTEAM_MCP_TOKEN}` reference below is sent literally by that version: the endpoint refuses it (fails closed)
//   and Kimi starts without agentteam tools. src/kimi_cli/soul/toolset.py also logs each server config, headers
//   included, at info level: one more reason the token value must never be placed in this file.
import { MCP_SERVER_NAME, MCP_TOKEN_ENV, type RuntimeDriver } from './types.js';

export const KIMI_MCP_CONFIG_FILE = 'kimi-mcp.json';

/** The Kimi CLI MCP config; the header is a `${VAR}` reference, never the token value. */
export function kimiMcpConfig(mcpUrl: string): object {
  return {
    mcpServers: {
      [MCP_SERVER_NAME]: { url: mcpUrl, transport: 'http', headers: { Authorization: `Bearer \${${MCP_TOKEN_ENV}}` } },
    },
  };
}

export const kimiDriver: RuntimeDriver = {
  kind: 'kimi',
  binaries: ['kimi', 'kimi-cli'],
  install: 'uv tool install kimi-cli',
  async configure({ opts, own, writeFile }) {
    if (!own) return {};
    const file = await writeFile(KIMI_MCP_CONFIG_FILE, JSON.stringify(kimiMcpConfig(opts.mcpUrl), null, 2) + '\n');
    return { insertArgs: ['--mcp-config-file', file] };
  },
};
