// Owns the owner CLI's table of top-level commands: name, description and the module that builds each (loaded only when it runs).
import type { CommandBody, CommandSpec, OptSpec } from './args.js';
import type { CliContext } from './daemon-client.js';

type Load = (ctx: CliContext) => Promise<CommandBody>;

// Name, description (for the program's help, without loading anything) and the module that builds the command.
export const COMMANDS: ReadonlyArray<readonly [string, string, Load]> = [
  ['init', 'start the daemon (an embedded workspace, or a team with --server-url); idempotent', async (c) => (await import('./daemon-commands.js')).initCommand(c)],
  ['member', 'workspace members (Humans and agents)', async (c) => (await import('./member-cmd.js')).memberCommand(c)],
  ['extension', 'App-hosted Extensions agents use as agentteam exec github|gitea (owner)', async (c) => (await import('./extension-cmd.js')).extensionCommand(c)],
  ['console', 'open the local web console with a one-time login link', async (c) => (await import('./console-cmd.js')).consoleCommand(c)],
  ['daemon', 'run and inspect the daemon', async (c) => (await import('./daemon-commands.js')).daemonCommand(c)],
  ['agent', 'manage agents', async (c) => (await import('./agent-cmd.js')).agentCommand(c)],
  ['channel', 'channels: create, list, add and remove members (owner or admin)', async (c) => (await import('./channel-cmd.js')).channelCommand(c)],
  ['dm', 'direct messages', async (c) => (await import('./channel-cmd.js')).dmCommand(c)],
  ['message', 'talk to agents as the Human owner', async (c) => (await import('./message-cmd.js')).messageCommand(c)],
  ['runtime', 'launch and manage agent runtimes', async (c) => (await import('./runtime-cmd.js')).runtimeCommand(c)],
  ['kb', 'knowledge sources agents search with kb_search', async (c) => (await import('./kb-cmd.js')).kbCommand(c)],
  ['server', 'run the AgentTeam Server standalone', async (c) => (await import('./server-commands.js')).serverCommand(c)],
  ['token', 'local token diagnostics', async (c) => (await import('./token-cmd.js')).tokenCommand(c)],
];

/** Accepted before or after the command's name (up to `--` or a pass-through command line). */
export const HOME: OptSpec = { flags: '--home <dir>', desc: 'home folder (default $AGENTTEAM_HOME or ~/.agentteam)' };
export const VERSION: OptSpec = { flags: '--version', desc: 'print the version' };
const DESC = 'AgentTeam daemon and owner CLI. In a runtime, use: agentteam exec --help';
export const PROGRAM: CommandSpec = { name: 'agentteam', desc: DESC, options: [HOME, VERSION], sub: COMMANDS.map(([name, desc]) => ({ name, desc })) };
// The program level reads its own options, then hands every word from the command's name on to that command.
export const TOP: CommandSpec = { name: 'agentteam', desc: DESC, options: [HOME, VERSION], args: [{ name: '[command...]', desc: '' }], passThrough: true };
