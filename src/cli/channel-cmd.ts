// Owns `agentteam channel create|ls|add|rm` and `agentteam dm open`, and resolving `dm:NAME` targets for `message`.
import type { Command } from 'commander';
import { ownerRequest, type Envelope } from './daemon-client.js';
import { humanOutput, printJson, printList, terminalText } from './output.js';

type Unwrap = (r: { status: number; body: Envelope }) => any;

/** The member list of a CLI argument: `ana,bob` and repeated arguments both work. */
const names = (args: string[]): string[] => args.flatMap((a) => a.split(',')).map((s) => s.trim()).filter(Boolean);

/** A one-line answer on a terminal, the JSON value when piped or with --json. */
function printOne(v: unknown, line: string, json: boolean | undefined): void {
  if (humanOutput(json)) process.stdout.write(`${terminalText(line, true)}\n`);
  else printJson(v);
}

/** `dm:NAME[,NAME…]` as the exact DM target (the daemon opens the DM if needed); other targets unchanged, without a request. */
export async function resolveTarget(home: string, target: string, unwrap: Unwrap): Promise<string> {
  if (!target.startsWith('dm:')) return target;
  return (unwrap(await ownerRequest(home, 'POST', '/api/daemon/targets', { target })) as { target: string }).target;
}

export function registerChannelCommands(program: Command, home: () => string, unwrap: Unwrap): void {
  const channel = program.command('channel').description('channels: create, list, add and remove members (owner or admin)');
  channel
    .command('create')
    .description('create a channel with a slug id, e.g. agentteam channel create ops --name Operations')
    .argument('<id>', 'slug: lowercase letters, digits and -')
    .option('--name <name>', 'display name (default: the id)')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { name?: string; json?: boolean }) => {
      const c = unwrap(await ownerRequest(home(), 'POST', '/api/daemon/channels', { id, ...(o.name ? { name: o.name } : {}) }));
      printOne(c, `created ${c.target}`, o.json);
    });
  channel
    .command('ls')
    .description('list channels, e.g. agentteam channel ls (a table on a terminal, JSON when piped or with --json)')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const { channels } = unwrap(await ownerRequest(home(), 'GET', '/api/daemon/channels')) as { channels: Array<Record<string, string>> };
      printList(channels, [{ header: 'target', value: (c) => c.target! }, { header: 'name', value: (c) => c.name! }, { header: 'created', value: (c) => c.createdAt!.slice(0, 19).replace('T', ' ') }], o.json);
    });
  for (const [cmd, verb, path] of [['add', 'add a member to', '/api/daemon/channels/members'], ['rm', 'remove a member from', '/api/daemon/channels/members/removal']] as const) {
    channel
      .command(cmd)
      .description(`${verb} a channel, e.g. agentteam channel ${cmd} ops demo`)
      .argument('<channel>', 'channel id (ops, #ops or channel:ops)')
      .argument('<member>', 'member name (any case) or id')
      .option('--json', 'print JSON')
      .action(async (ch: string, member: string, o: { json?: boolean }) => {
        const r = unwrap(await ownerRequest(home(), 'POST', path, { channel: ch, member }));
        printOne(r, `${cmd === 'add' ? 'added' : 'removed'} ${r.member.name} ${cmd === 'add' ? 'to' : 'from'} ${r.channel}`, o.json);
      });
  }
  const dm = program.command('dm').description('direct messages');
  dm.command('open')
    .description('open (or find) the DM with these members and print its target, e.g. agentteam dm open --with demo')
    .requiredOption('--with <names...>', 'member names (any case) or ids, comma separated')
    .option('--json', 'print JSON')
    .action(async (o: { with: string[]; json?: boolean }) => {
      const r = unwrap(await ownerRequest(home(), 'POST', '/api/daemon/dms', { with: names(o.with) }));
      printOne(r, r.target, o.json);
    });
}
