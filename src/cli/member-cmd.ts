// Owns `agentteam member …`: invite (with the exact join command), invite ls / revoke, ls (with roles), role, rm.
import type { CommandBody, CommandSpec } from './args.js';
import { CliError } from './cli-error.js';
import { ownerRequest, unwrap, type CliContext } from './daemon-client.js';
import { humanOutput, printJson, printList, terminalText } from './output.js';

const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** What `member invite` prints for a person: the code, then the command for the other machine. */
export function inviteText(inv: { name: string; role: string; expiresAt: string; code: string; command: string; serverCaFile?: string; note?: string }): string {
  const lines = [`invite for ${terminalText(inv.name, true)} (${inv.role}), one use, expires ${inv.expiresAt}:`, `  ${inv.code}`, 'on their machine:', `  ${inv.command}`];
  if (inv.serverCaFile) lines.push(`copy ${inv.serverCaFile} (this server's CA) to their machine first and give its path to --server-ca`);
  if (inv.note) lines.push(`note: ${inv.note}`);
  return lines.join('\n') + '\n';
}

export function memberCommand({ home }: CliContext): CommandBody {
  const invite: CommandSpec = {
    name: 'invite',
    desc: 'print a one-time, expiring invite and the command to join with it (owner or admin), e.g. agentteam member invite --name Ana',
    options: [
      { flags: '--name <name>', desc: "the new member's name" },
      { flags: '--role <role>', desc: 'role', choices: ['member', 'admin'], default: 'member' },
      { flags: '--expires <span>', desc: 'valid for 30m, 24h, 7d… (default 7d, at most 30d)' },
      { flags: '--json', desc: 'print JSON' },
    ],
    run: async (o) => {
      if (!o.name) throw new CliError('give --name NAME (or: agentteam member invite ls | revoke ID)', 2);
      if (o.expires !== undefined) {
        const { parseInviteExpiry } = await import('../domains/member/contract.js');
        const expiry = parseInviteExpiry(o.expires);
        if (typeof expiry === 'string') throw new CliError(`--${expiry}`, 2);
      }
      const inv = unwrap(await ownerRequest(home(), 'POST', '/api/daemon/invites', { name: o.name, role: o.role, ...(o.expires ? { expires: o.expires } : {}) }));
      if (o.json || !process.stdout.isTTY) printJson(inv);
      else process.stdout.write(inviteText(inv));
    },
    sub: [
      {
        name: 'ls',
        desc: 'list invites, newest first, with their status (never their codes); owner or admin',
        options: [
          { flags: '--limit <n>', desc: '1..100 (default 20)' },
          { flags: '--cursor <c>', desc: 'continue from a previous page' },
          { flags: '--json', desc: 'print JSON' },
        ],
        run: async (o) => {
          const q = new URLSearchParams();
          if (o.limit) q.set('limit', o.limit);
          if (o.cursor) q.set('cursor', o.cursor);
          const page = unwrap(await ownerRequest(home(), 'GET', `/api/daemon/invites${q.size ? `?${q}` : ''}`));
          printList(
            page.invites as Array<Record<string, string>>,
            [
              { header: 'id', value: (i) => i.id! },
              { header: 'name', value: (i) => i.name! },
              { header: 'role', value: (i) => i.role! },
              { header: 'status', value: (i) => i.status! },
              { header: 'expires', value: (i) => when(i.expiresAt!) },
              { header: 'by', value: (i) => i.createdBy! },
            ],
            o.json,
            page,
          );
          if (humanOutput(o.json) && page.nextCursor) process.stdout.write(`more: --cursor ${page.nextCursor}\n`);
        },
      },
      {
        name: 'revoke',
        desc: 'revoke an unused invite by id (owner or admin); its code stops working at once',
        args: [{ name: '<invite>', desc: 'invite id' }],
        run: async (_o, [id]) => printJson(unwrap(await ownerRequest(home(), 'POST', `/api/daemon/invites/${encodeURIComponent(id!)}/revoke`))),
      },
    ],
  };
  return {
    sub: [
      invite,
      {
        name: 'ls',
        desc: 'list members with their roles (a table on a terminal, JSON when piped or with --json)',
        options: [{ flags: '--json', desc: 'print JSON' }],
        run: async (o) => {
          const members = unwrap(await ownerRequest(home(), 'GET', '/api/daemon/members')).members as Array<Record<string, string>>;
          printList(members, [{ header: 'name', value: (m) => m.name! }, { header: 'kind', value: (m) => m.kind! }, { header: 'role', value: (m) => m.role! }, { header: 'id', value: (m) => m.id! }], o.json);
        },
      },
      {
        name: 'role',
        desc: "make a person an admin or a plain member (owner only), e.g. agentteam member role Ana admin; a demoted admin's invites are revoked",
        args: [
          { name: '<member>', desc: 'member name or id' },
          { name: '<role>', desc: 'admin or member', choices: ['admin', 'member'] },
        ],
        run: async (_o, [who, role]) => printJson(unwrap(await ownerRequest(home(), 'POST', `/api/daemon/members/${encodeURIComponent(who!)}/role`, { role }))),
      },
      {
        name: 'rm',
        desc: "remove a member by name or id (owner or admin); a person's agents go too, their credentials stop at once",
        args: [{ name: '<member>', desc: 'member name or id' }],
        run: async (_o, [who]) => printJson(unwrap(await ownerRequest(home(), 'POST', `/api/daemon/members/${encodeURIComponent(who!)}/removal`))),
      },
    ],
  };
}
