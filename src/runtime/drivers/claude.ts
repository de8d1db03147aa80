// Owns the `claude` driver: Claude Code gets a --mcp-config JSON in runDir (bearer read from env), the agentteam
// permissions, and for a turn its instructions, prompt, output format and resume flags.
//
// Checked against Claude Code's docs and behaviour (stored copies, `claude --help` and real runs of
// @anthropic-ai/claude-code 2.1.328 in test/runtimes/claude.test.ts):
// - code.claude.com/docs/en/mcp, "Environment variable expansion in .mcp.json": `${VAR}` and `${VAR:-default}` expand in
//   command, args, env, url and headers; `--mcp-config <configs...>` loads servers from JSON files (`claude --help`).
// - HTTP servers are `{"type":"http","url":…,"headers":{…}}` (docs.anthropic.com …/claude-code/sdk/sdk-mcp, "HTTP/SSE").
// - Permission rules (code.claude.com/docs/en/iam "Tool-specific permission rules"): `mcp__<server>` matches every tool
//   of that server; `Bash(<prefix>:*)` matches a command starting with the prefix. `-p` denies any tool not allowed,
//   so without these the model's first call fails ("you haven't granted it yet"); no bypass mode is used.
// - `--allowedTools <tools...>` and `--mcp-config <configs...>` are variadic: `--flag V "prompt"` would swallow the
//   prompt, so their values are attached with `=`, which ends the option (checked on 2.1.328).
// - `--append-system-prompt <prompt>` adds to Claude's own system prompt (keeps its tool guidance); `--output-format
//   stream-json` needs `--verbose` with `-p` and prints `session_id` on its init and result lines; `--resume <id>`
//   continues that session (`claude --help`).
// - `--settings <file-or-json>` loads more settings (merged; deny lists of every layer apply, and a deny rule beats any
//   allow). Its `permissions.deny` holds `Read(//abs)`/`Edit(//abs)` rules (`//` anchors at the filesystem root; Read rules
//   cover Claude's file-reading tools, Edit rules every editing tool), so paths with spaces need no CLI escaping.
import { assertRulePath, homeDenyPaths } from './home-deny.js';
import { MCP_SERVER_NAME, MCP_TOKEN_ENV, MEMORY_DIR_ENV, type RuntimeDriver } from './types.js';
import { lastJsonField } from './output.js';

export const CLAUDE_MCP_CONFIG_FILE = 'claude-mcp.json';
export const CLAUDE_SETTINGS_FILE = 'claude-settings.json';

/**
 * The deny rules for the AgentTeam home: every entry but this agent's Memory clone, each as itself, everything under it,
 * and its `.tmp`/`-wal` siblings. Security invariant: Claude's file tools never read or edit the home's credentials.
 */
export function claudeHomeDeny(home: string | undefined, memoryDir: string | undefined): string[] {
  if (!home) return [];
  const paths = homeDenyPaths(home, [memoryDir]);
  for (const p of paths) assertRulePath(p);
  return paths.flatMap((p) => ['Read', 'Edit'].flatMap((tool) => [p, `${p}/**`, `${p}.*`, `${p}-*`].map((x) => `${tool}(/${x})`)));
}

/** Exactly the agentteam MCP tools and the `agentteam exec` commands; nothing else is pre-approved. */
export const CLAUDE_ALLOWED_TOOLS = [`mcp__${MCP_SERVER_NAME}`, 'Bash(agentteam exec:*)'] as const;

/** A path a permission rule can carry as it is (the rule list splits on commas and spaces; `*?[]\\` are patterns). */
const PLAIN_PATH = /^\/[A-Za-z0-9._\/-]+$/;

/**
 * The Memory clone as a working folder (`--add-dir`, variadic, so `=`) whose files the file tools may edit
 * (`Edit(//abs/**)`: `//` anchors at the filesystem root; Edit rules cover every editing tool), except `.git`
 * (a deny rule wins over allow). No git command is allowed: `git -C DIR config …` could run anything.
 * A path a rule cannot carry plainly gets nothing (the folder stays read-only for Claude).
 */
export function claudeMemoryRules(dir: string | undefined): { allow: string[]; args: string[] } {
  if (!dir || !PLAIN_PATH.test(dir)) return { allow: [], args: [] };
  const d = dir.replace(/\/+$/, '');
  return { allow: [`Edit(/${d}/**)`], args: [`--add-dir=${d}`, `--disallowedTools=Edit(/${d}/.git/**)`] };
}

/** The Claude Code MCP config: url plus a `${VAR}` header reference; the token value never reaches the file. */
export function claudeMcpConfig(mcpUrl: string): object {
  return {
    mcpServers: {
      [MCP_SERVER_NAME]: { type: 'http', url: mcpUrl, headers: { Authorization: `Bearer \${${MCP_TOKEN_ENV}}` } },
    },
  };
}

/** The session id Claude printed (stream-json init/result lines, or the json result object). */
export function claudeSessionId(stdout: string): string | undefined {
  return lastJsonField(stdout, 'session_id');
}

export const claudeDriver: RuntimeDriver = {
  kind: 'claude',
  binaries: ['claude'],
  install: 'npm i -g @anthropic-ai/claude-code',
  async configure({ opts, own, writeFile }) {
    // Another command (a wrapper script) gets only the caller's env; it has no flag to receive the config.
    if (!own) return {};
    const file = await writeFile(CLAUDE_MCP_CONFIG_FILE, JSON.stringify(claudeMcpConfig(opts.mcpUrl), null, 2) + '\n');
    const memory = claudeMemoryRules(opts.env[MEMORY_DIR_ENV]);
    const deny = claudeHomeDeny(opts.home, opts.env[MEMORY_DIR_ENV]);
    const settings = deny.length > 0 ? [`--settings=${await writeFile(CLAUDE_SETTINGS_FILE, JSON.stringify({ permissions: { deny } }, null, 2) + '\n')}`] : [];
    const insertArgs = [`--mcp-config=${file}`, `--allowedTools=${[...CLAUDE_ALLOWED_TOOLS, ...memory.allow].join(',')}`, ...memory.args, ...settings];
    const turn = opts.turn;
    if (!turn) return { insertArgs };
    const appendArgs = ['--append-system-prompt', turn.stable, '--output-format', 'stream-json', '--verbose'];
    if (turn.model) appendArgs.push('--model', turn.model);
    if (turn.resumeId) appendArgs.push('--resume', turn.resumeId);
    // The prompt goes on stdin (`-p` with no positional reads it), so no text of it can be read as a flag.
    appendArgs.push('-p');
    return { insertArgs, appendArgs, stdin: turn.prompt, resumeIdFrom: claudeSessionId };
  },
};
