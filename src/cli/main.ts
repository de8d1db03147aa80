// Owns the owner CLI entry: the table of top-level commands (each one's module loads only when it runs), global --home, errors and exit codes.
import { fileURLToPath } from 'node:url';
import { resolveHome } from '../home/home.js';
import { SERVER_VERSION } from '../shared/version.js';
import { helpText, parse, UsageError, type CommandBody, type CommandSpec, type OptSpec, type Opts } from './args.js';
import { CliError, type CliContext } from './daemon-client.js';

type Load = (ctx: CliContext) => Promise<CommandBody>;

// Name, description (for the program's help, without loading anything) and the module that builds the command.
const COMMANDS: ReadonlyArray<readonly [string, string, Load]> = [
  ['init', 'start the daemon: embedded workspace; or a team: --server-url URL (owner, with AGENTTEAM_SERVER_ADMIN_TOKEN) or --server-url URL --invite CODE; idempotent', async (c) => (await import('./daemon-commands.js')).initCommand(c)],
  ['member', 'workspace members (Humans and agents)', async (c) => (await import('./member-cmd.js')).memberCommand(c)],
  ['extension', 'App-hosted Extensions agents use as agentteam exec github|gitea (owner)', async (c) => (await import('./extension-cmd.js')).extensionCommand(c)],
  ['console', 'open the local web console: prints a one-time login link (valid 2 minutes) and opens it in $BROWSER or xdg-open', async (c) => (await import('./console-cmd.js')).consoleCommand(c)],
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
const HOME: OptSpec = { flags: '--home <dir>', desc: 'home folder (default $AGENTTEAM_HOME or ~/.agentteam)' };
const VERSION: OptSpec = { flags: '--version', desc: 'print the version' };
const DESC = 'AgentTeam daemon and owner CLI. In a runtime, use: agentteam exec --help';
const PROGRAM: CommandSpec = { name: 'agentteam', desc: DESC, options: [HOME, VERSION], sub: COMMANDS.map(([name, desc]) => ({ name, desc })) };
// The program level reads its own options, then hands every word from the command's name on to that command.
const TOP: CommandSpec = { name: 'agentteam', desc: DESC, options: [HOME, VERSION], args: [{ name: '[command...]', desc: '' }], passThrough: true };

function printHelp(spec: CommandSpec, path: string, toStderr: boolean): void {
  (toStderr ? process.stderr : process.stdout).write(helpText(spec, path));
  if (toStderr) process.exitCode = 1;
}

async function main(argv: readonly string[]): Promise<void> {
  const global: Opts = {};
  const ctx: CliContext = { home: () => resolveHome(global.home as string | undefined), homeFlag: () => global.home as string | undefined, entry: fileURLToPath(import.meta.url) };
  const top = parse(TOP, argv, 'agentteam', [], global);
  if (top.kind === 'help') return printHelp(PROGRAM, 'agentteam', false);
  if (top.opts.version) return void process.stdout.write(`${SERVER_VERSION}\n`);
  global.home = top.opts.home;
  let [name, ...rest] = top.args;
  if (name === 'help') {
    // `agentteam help [command [sub…]]` is `agentteam command [sub…] --help`.
    if (rest.length === 0) return printHelp(PROGRAM, 'agentteam', false);
    [name, ...rest] = [...rest, '--help'];
  }
  if (name === undefined) return printHelp(PROGRAM, 'agentteam', true);
  const entry = COMMANDS.find(([n]) => n === name);
  if (!entry) throw new UsageError(`unknown command '${name}'`, PROGRAM, 'agentteam');
  const spec: CommandSpec = { name, desc: entry[1], ...(await entry[2](ctx)) };
  const r = parse(spec, rest, `agentteam ${name}`, [HOME], global);
  if (r.kind === 'help') return printHelp(r.spec, r.path, r.toStderr);
  await r.spec.run!(r.opts, r.args);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  if (e instanceof UsageError) {
    // A usage error prints the command's help after it and exits 1 (what commander did; tests and scripts rely on 1).
    process.stderr.write(`error: ${e.message}\n\n${helpText(e.spec, e.path)}`);
    process.exitCode = 1;
  } else if (e instanceof CliError) {
    process.stderr.write(`agentteam: ${e.message}\n`);
    process.exitCode = e.exitCode;
  } else {
    process.stderr.write(`agentteam: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  }
});
