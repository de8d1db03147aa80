// Owns `agentteam channel create|ls|add|rm` and `agentteam dm open`.
import type { CommandBody, CommandSpec } from './args.js';
import { ownerRequest, unwrap, type CliContext } from './daemon-client.js';
import { humanOutput, printJson, printList, terminalText } from './output.js';

/** The member list of a CLI argument: `ana,bob` and repeated arguments both work. */
const names = (args: string[]): string[] => args.flatMap((a) => a.split(',')).map((s) => s.trim()).filter(Boolean);

/** A one-line answer on a terminal, the JSON value when piped or with --json. */
function printOne(v: unknown, line: string, json: boolean | undefined): void {
  if (humanOutput(json)) process.stdout.write(`${terminalText(line, true)}\n`);
  else printJson(v);
}

const JSON_OPT = { flags: '--json', desc: 'print JSON' };

export function channelCommand({ home }: CliContext): CommandBody {
  const members = (['add', 'rm'] as const).map((cmd): CommandSpec => ({
    name: cmd,
    desc: `${cmd === 'add' ? 'add a member to' : 'remove a member from'} a channel, e.g. agentteam channel ${cmd} ops demo`,
    args: [
      { name: '<channel>', desc: 'channel id (ops, #ops or channel:ops)' },
      { name: '<member>', desc: 'member name (any case) or id' },
    ],
    options: [JSON_OPT],
    run: async (o, [ch, member]) => {
      const path = cmd === 'add' ? '/api/daemon/channels/members' : '/api/daemon/channels/members/removal';
      const r = unwrap(await ownerRequest(home(), 'POST', path, { channel: ch, member }));
      printOne(r, `${cmd === 'add' ? 'added' : 'removed'} ${r.member.name} ${cmd === 'add' ? 'to' : 'from'} ${r.channel}`, o.json);
    },
  }));
  return {
    sub: [
      {
        name: 'create',
        desc: 'create a channel with a slug id, e.g. agentteam channel create ops --name Operations',
        args: [{ name: '<id>', desc: 'slug: lowercase letters, digits and -' }],
        options: [{ flags: '--name <name>', desc: 'display name (default: the id)' }, JSON_OPT],
        run: async (o, [id]) => {
          const c = unwrap(await ownerRequest(home(), 'POST', '/api/daemon/channels', { id, ...(o.name ? { name: o.name } : {}) }));
          printOne(c, `created ${c.target}`, o.json);
        },
      },
      {
        name: 'ls',
        desc: 'list channels, e.g. agentteam channel ls (a table on a terminal, JSON when piped or with --json)',
        options: [JSON_OPT],
        run: async (o) => {
          const { channels } = unwrap(await ownerRequest(home(), 'GET', '/api/daemon/channels')) as { channels: Array<Record<string, string>> };
          printList(channels, [{ header: 'target', value: (c) => c.target! }, { header: 'name', value: (c) => c.name! }, { header: 'created', value: (c) => c.createdAt!.slice(0, 19).replace('T', ' ') }], o.json);
        },
      },
      ...members,
    ],
  };
}

export function dmCommand({ home }: CliContext): CommandBody {
  return {
    sub: [
      {
        name: 'open',
        desc: 'open (or find) the DM with these members and print its target, e.g. agentteam dm open --with demo',
        options: [{ flags: '--with <names...>', desc: 'member names (any case) or ids, comma separated', required: true }, JSON_OPT],
        run: async (o) => {
          const r = unwrap(await ownerRequest(home(), 'POST', '/api/daemon/dms', { with: names(o.with) }));
          printOne(r, r.target, o.json);
        },
      },
    ],
  };
}
