// Owns the command table entry of `agentteam server start`; the server itself (server-cmd.ts) loads only when it starts.
import type { CommandBody } from './args.js';
import type { CliContext } from './daemon-client.js';
import type { ServerStartOptions } from './server-cmd.js';

export function serverCommand({ homeFlag }: CliContext): CommandBody {
  return {
    sub: [
      {
        name: 'start',
        desc: 'run the server in the foreground, e.g. agentteam server start --port 7700 --db sqlite:./server.db',
        options: [
          { flags: '--db <url>', desc: 'sqlite:PATH or postgres://USER@HOST:PORT/DB (default $AGENTTEAM_DB; no password: ps shows it)' },
          { flags: '--db-file <file>', desc: 'the database URL from a 0600 file' },
          { flags: '--port <n>', desc: 'port', default: '7700' },
          { flags: '--host <addr>', desc: 'bind address (default 127.0.0.1)' },
          { flags: '--allowed-host <name...>', desc: 'Host names clients use (needed off loopback)' },
          { flags: '--tls-cert <file>', desc: 'PEM certificate chain: https' },
          { flags: '--tls-key <file>', desc: 'its PEM private key' },
          { flags: '--tls-proxy', desc: 'plain http off loopback, behind a TLS proxy (X-Forwarded-Proto)' },
          { flags: '--log-file <file>', desc: 'JSON logs here (default: stdout)' },
          { flags: '--admin-token-file <file>', desc: 'admin token file (created 0600 if missing)' },
        ],
        run: async (o) => void (process.exitCode = await (await import('./server-cmd.js')).serverStart({ ...(o as ServerStartOptions), home: homeFlag() })),
      },
    ],
  };
}
