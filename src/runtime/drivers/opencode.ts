// Owns the `opencode` driver: OpenCode gets an opencode.json in runDir (remote MCP, `{env:…}` bearer) via OPENCODE_CONFIG.
//
// Checked against OpenCode's docs and behaviour (stored copies, and a real run of opencode-ai 1.18.33):
// - opencode.ai/docs/mcp-servers: remote servers are `{"type":"remote","url":…,"headers":{…}}`; config values
//   substitute `{env:VAR}` (opencode.ai/docs/config "Variables"; anomalyco/opencode issue #5299 shows it in headers).
// - OPENCODE_CONFIG is a path to a custom config file, merged between the global and project configs
//   (opencode.ai/docs/config, env-var reference), so nothing is written into the user's workdir.
// - The newer "V2" docs nest servers under `mcp.servers`; 1.18.33 (pinned in test/runtimes) takes `mcp.<name>`,
//   verified by test/runtimes/opencode.test.ts: `opencode mcp list` printed `✓ agentteam connected`.
import { MCP_SERVER_NAME, MCP_TOKEN_ENV, type RuntimeDriver } from './types.js';

export const OPENCODE_CONFIG_FILE = 'opencode.json';

/** The OpenCode config: one remote MCP entry whose header is an `{env:…}` reference; the token never reaches the file. */
export function opencodeConfig(mcpUrl: string): object {
  return {
    $schema: 'https://opencode.ai/config.json',
    mcp: {
      [MCP_SERVER_NAME]: {
        type: 'remote',
        url: mcpUrl,
        enabled: true,
        headers: { Authorization: `Bearer {env:${MCP_TOKEN_ENV}}` },
      },
    },
  };
}

export const opencodeDriver: RuntimeDriver = {
  kind: 'opencode',
  binaries: ['opencode'],
  install: 'npm i -g opencode-ai',
  async configure({ opts, writeFile }) {
    // OPENCODE_CONFIG also reaches an opencode started by a wrapper command, so it is set whatever argv[0] is.
    const file = await writeFile(OPENCODE_CONFIG_FILE, JSON.stringify(opencodeConfig(opts.mcpUrl), null, 2) + '\n');
    return { envAdd: { OPENCODE_CONFIG: file } };
  },
};
