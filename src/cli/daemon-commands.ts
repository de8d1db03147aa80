// Owns the command table entries of `agentteam init` and `agentteam daemon start|stop|status` (daemon-cmd.ts does the work).
import type { CommandBody } from './args.js';
import { daemonStart, daemonStatus, daemonStop } from './daemon-cmd.js';
import { CliError } from './cli-error.js';
import type { CliContext } from './daemon-client.js';
import { printJson } from './output.js';

const PORT = { flags: '--port <n>', desc: 'local API port (default: any free port)' };
const SERVER_CA = { flags: '--server-ca <file>', desc: 'PEM CA to trust for an https:// server' };

export function initCommand({ home, entry }: CliContext): CommandBody {
  return {
    desc: 'start the daemon: embedded workspace; or a team: --server-url URL (owner, with AGENTTEAM_SERVER_ADMIN_TOKEN) or --server-url URL --invite CODE; idempotent',
    options: [
      PORT,
      { flags: '--server-url <url...>', desc: 'team server URL(s), comma-separated' },
      { flags: '--invite <code>', desc: 'one-time invite code from agentteam member invite' },
      SERVER_CA,
      { flags: '--name <name>', desc: "the owner's display name (first init with the admin token)" },
    ],
    run: async (opts) => {
      const o = opts as { port?: string; serverUrl?: string[]; invite?: string; serverCa?: string; name?: string };
      if (o.invite !== undefined && o.serverUrl === undefined) throw new CliError('--invite needs --server-url: agentteam init --server-url URL --invite CODE', 2);
      if ((o.serverCa !== undefined || o.name !== undefined) && o.serverUrl === undefined) throw new CliError('--server-ca and --name go with --server-url', 2);
      if (o.invite && o.name !== undefined) throw new CliError('--name is for the owner; an invite already carries the name', 2);
      const ca = o.serverCa ? { serverCa: o.serverCa } : {};
      // Joining loads only when this init joins or creates a team.
      if (o.invite) process.stderr.write(`agentteam: joined as ${JSON.stringify(await (await import('./join-cmd.js')).joinWorkspace(home(), { serverUrl: o.serverUrl!, invite: o.invite, ...ca }))}\n`);
      else if (o.serverUrl) {
        const r = await (await import('./join-cmd.js')).initOwner(home(), { serverUrl: o.serverUrl, ...ca, ...(o.name !== undefined ? { name: o.name } : {}), adminToken: process.env.AGENTTEAM_SERVER_ADMIN_TOKEN });
        if (r.created) process.stderr.write(`agentteam: owner of server ${r.serverId} as ${JSON.stringify(r.name)}\n`);
      }
      const s = await daemonStatus(home());
      if (s.healthy) printJson(s);
      else process.exitCode = await daemonStart(home(), { port: o.port }, entry);
    },
  };
}

export function daemonCommand({ home, entry }: CliContext): CommandBody {
  return {
    sub: [
      {
        name: 'start',
        desc: 'start the daemon (detached unless --foreground); returns once healthy',
        options: [
          PORT,
          { flags: '--foreground', desc: 'run in this process' },
          { flags: '--server-url <url...>', desc: 'remote server URL(s), tried in turn; remembered in the home' },
          { flags: '--server-id <id>', desc: 'the remote server id (with --server-url)' },
          SERVER_CA,
          { flags: '--max-turns <n>', desc: 'turn runtimes at once across agents, 1..512 (default 4)' },
          { flags: '--turn-timeout <seconds>', desc: 'stop a turn after this long (default 600)' },
          { flags: '--loop-bound <n>', desc: 'agent messages in a row in a target before agents stop answering (default 6)' },
          { flags: '--server-wait <seconds>', desc: 'retry an unreachable server this long (default 60)' },
          { flags: '--max-queued <n>', desc: 'queued turns per agent, then new ones are skipped (default 1000)' },
        ],
        run: async (o) => void (process.exitCode = await daemonStart(home(), o, entry)),
      },
      { name: 'stop', desc: 'stop the daemon gracefully', run: async () => void (process.exitCode = await daemonStop(home())) },
      {
        name: 'status',
        desc: 'print health as JSON; exit 1 when not healthy',
        run: async () => {
          const s = await daemonStatus(home());
          printJson(s);
          process.exitCode = s.healthy ? 0 : 1;
        },
      },
    ],
  };
}
