// Owns the `opencode` driver: OpenCode gets an opencode.json in runDir (remote MCP, `{env:…}` bearer, the agentteam
// permissions, and a turn's instructions file) via OPENCODE_CONFIG; a turn runs as `opencode run`.
//
// Checked against OpenCode's docs and behaviour (stored copies, `opencode run --help` and real runs of opencode-ai
// 1.18.33 in test/runtimes/opencode.test.ts):
// - opencode.ai/docs/mcp-servers: remote servers are `{"type":"remote","url":…,"headers":{…}}`; config values
//   substitute `{env:VAR}` (opencode.ai/docs/config "Variables"; anomalyco/opencode issue #5299 shows it in headers).
// - OPENCODE_CONFIG is a path to a custom config file, merged between the global and project configs
//   (opencode.ai/docs/config, env-var reference), so nothing is written into the user's workdir.
// - The newer "V2" docs nest servers under `mcp.servers`; 1.18.33 (pinned in test/runtimes) takes `mcp.<name>`,
//   verified by test/runtimes/opencode.test.ts: `opencode mcp list` printed `✓ agentteam connected`.
// - opencode.ai/v1/docs/permissions: `permission` maps a tool name (wildcards allowed; MCP tools are
//   `<server>_<tool>`) or `bash` command patterns to allow/ask/deny, last match winning. Only our tools and
//   `agentteam exec …` commands are set to allow; every other rule stays the user's or OpenCode's default.
// - opencode.ai/docs/rules "Custom instructions": `instructions` lists instruction files added to the system prompt.
// - `opencode run [message..]`: `--session <id>` continues a session, `--format json` prints raw JSON events that
//   carry `sessionID`, `--model provider/model` (absent: OpenCode's default model); piped stdin is the message.
// - Same page: `*` matches any characters (`/` included); `external_directory` rules apply to every tool that takes a
//   path outside the workdir (read, edit, list, glob, grep and many bash commands); per-tool object rules match the
//   tool's path (bash: the command text). The home is denied in each, after any allow, so the deny is the last match.
import { dirname, relative } from 'node:path';
import { homeSpellings } from './home-deny.js';
import { MCP_SERVER_NAME, MCP_TOKEN_ENV, MEMORY_DIR_ENV, type RuntimeDriver } from './types.js';
import { lastJsonField } from './output.js';

export const OPENCODE_CONFIG_FILE = 'opencode.json';
export const OPENCODE_INSTRUCTIONS_FILE = 'agentteam-instructions.md';

/** Exactly the agentteam MCP tools and the `agentteam exec` commands are allowed without asking. */
export const OPENCODE_PERMISSION = { [`${MCP_SERVER_NAME}_*`]: 'allow', bash: { 'agentteam exec *': 'allow' } } as const;

/** Path-taking tools whose rules deny the home. */
const PATH_TOOLS = ['read', 'edit', 'list', 'glob', 'grep', 'external_directory'] as const;

/**
 * How a rule may have to spell `p`: absolute (external_directory), and relative to the worktree (OpenCode 1.18.33's read
 * and edit match `path.relative(worktree, file)`, checked in its bundle), where the worktree is the workdir or one of its
 * ancestors (a git root; `/` outside git): so relative to each of them.
 */
function spellings(p: string, workdir: string | undefined): string[] {
  const out = [p];
  for (let a = workdir; a; a = dirname(a) === a ? undefined : dirname(a)) {
    const r = relative(a, p);
    if (r !== '') out.push(r);
  }
  return [...new Set(out)];
}

/** The permission block: ours, plus (with a home) deny rules for it. Security invariant: no OpenCode tool reads the home. */
export function opencodePermission(home?: string, memoryDir?: string, workdir?: string): Record<string, unknown> {
  if (!home) return { ...OPENCODE_PERMISSION };
  const spelled = homeSpellings(home);
  const deny = spelled.flatMap((h) => spellings(h, workdir)).flatMap((h) => [[h, 'deny'], [`${h}/*`, 'deny']]);
  const out: Record<string, unknown> = { ...OPENCODE_PERMISSION, bash: { ...OPENCODE_PERMISSION.bash, ...Object.fromEntries(spelled.map((h) => [`*${h}*`, 'deny'])) } };
  // The agent's own Memory clone (inside the home) keeps OpenCode's defaults: a later, more specific match wins.
  const keep = (t: string) => (t === 'external_directory' ? 'ask' : 'allow');
  const clone = (t: string) => (memoryDir ? spellings(memoryDir, workdir).flatMap((m) => [[m, keep(t)], [`${m}/*`, keep(t)]]) : []);
  for (const t of PATH_TOOLS) out[t] = Object.fromEntries([...deny, ...clone(t)]);
  return out;
}

/** The OpenCode config: one remote MCP entry whose header is an `{env:…}` reference; the token never reaches the file. */
export function opencodeConfig(mcpUrl: string, instructionsFile?: string, home?: string, memoryDir?: string, workdir?: string): object {
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
    permission: opencodePermission(home, memoryDir, workdir),
    ...(instructionsFile ? { instructions: [instructionsFile] } : {}),
  };
}

/** The session id `opencode run --format json` printed on its events. */
export function opencodeSessionId(stdout: string): string | undefined {
  return lastJsonField(stdout, 'sessionID');
}

export const opencodeDriver: RuntimeDriver = {
  kind: 'opencode',
  binaries: ['opencode'],
  install: 'npm i -g opencode-ai',
  async configure({ opts, own, writeFile }) {
    const turn = opts.turn;
    const instructions = turn ? await writeFile(OPENCODE_INSTRUCTIONS_FILE, turn.stable) : undefined;
    // OPENCODE_CONFIG also reaches an opencode started by a wrapper command, so it is set whatever argv[0] is.
    const file = await writeFile(OPENCODE_CONFIG_FILE, JSON.stringify(opencodeConfig(opts.mcpUrl, instructions, opts.home, opts.env[MEMORY_DIR_ENV], opts.workdir), null, 2) + '\n');
    const envAdd = { OPENCODE_CONFIG: file };
    if (!turn || !own) return { envAdd };
    const appendArgs = ['run', '--format', 'json'];
    if (turn.model) appendArgs.push('--model', turn.model);
    if (turn.resumeId) appendArgs.push('--session', turn.resumeId);
    // `--` ends the options: the prompt is one positional message even when it starts with `-`.
    return { envAdd, appendArgs, stdin: turn.prompt, resumeIdFrom: opencodeSessionId };
  },
};
