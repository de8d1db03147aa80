// Owns the owner CLI entry: finds the command in the table (commands.ts), loads its module, runs it; global --home, errors and exit codes.
import { fileURLToPath } from 'node:url';
import { resolveHome } from '../home/home.js';
import { helpText, parse, UsageError, type CommandSpec, type Opts } from './args.js';
import { COMMANDS, HOME, PROGRAM, TOP } from './commands.js';
import { CliError } from './cli-error.js';
import type { CliContext } from './daemon-client.js';

function printHelp(spec: CommandSpec, path: string, toStderr: boolean): void {
  (toStderr ? process.stderr : process.stdout).write(helpText(spec, path));
  if (toStderr) process.exitCode = 1;
}

async function main(argv: readonly string[]): Promise<void> {
  const global: Opts = {};
  const ctx: CliContext = { home: () => resolveHome(global.home as string | undefined), homeFlag: () => global.home as string | undefined, entry: fileURLToPath(import.meta.url) };
  const top = parse(TOP, argv, 'agentteam', [], global);
  if (top.kind === 'help') return printHelp(PROGRAM, 'agentteam', false);
  if (top.opts.version) return void process.stdout.write(`${(await import('../shared/version.js')).SERVER_VERSION}\n`);
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
  if (r.kind === 'help' || !r.spec.run) return printHelp(r.spec, r.path, r.kind !== 'help' || r.toStderr);
  await r.spec.run(r.opts, r.args);
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
