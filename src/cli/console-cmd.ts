// Owns `agentteam console`: asks the daemon for a one-time login link, prints it, and opens it in the person's browser where one is set.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { CommandBody } from './args.js';
import { CliError } from './cli-error.js';
import { ownerRequest, type CliContext } from './daemon-client.js';

/** The command that opens a URL: the first entry of $BROWSER, else xdg-open when it is on PATH; undefined when neither. */
export function browserCommand(env: NodeJS.ProcessEnv): { cmd: string; args: string[] } | undefined {
  const first = env.BROWSER?.split(':').map((s) => s.trim()).find(Boolean);
  if (first) {
    const [cmd, ...args] = first.split(/\s+/);
    return { cmd: cmd!, args };
  }
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, 'xdg-open'), constants.X_OK);
      return { cmd: join(dir, 'xdg-open'), args: [] };
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/** Opens `url` without a shell (the URL is one argument; `%s` in $BROWSER is replaced by it). Resolves whether it started. */
function openUrl(b: { cmd: string; args: string[] }, url: string): Promise<boolean> {
  const args = b.args.some((a) => a.includes('%s')) ? b.args.map((a) => a.replaceAll('%s', url)) : [...b.args, url];
  return new Promise((resolve) => {
    const child = spawn(b.cmd, args, { detached: true, stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

export function consoleCommand({ home }: CliContext): CommandBody {
  return {
    desc: 'open the local web console: prints a one-time login link (valid 2 minutes) and opens it in $BROWSER or xdg-open',
    options: [{ flags: '--no-open', desc: 'only print the link' }],
    run: async (o) => {
      const r = await ownerRequest(home(), 'POST', '/api/daemon/console/link', {});
      if (!r.body.ok) throw new CliError(`${r.body.error?.code ?? 'error'}: ${r.body.error?.message ?? 'request failed'}`);
      const url = (r.body.data as { url: string }).url;
      process.stdout.write(`${url}\n`);
      if (!o.open) return;
      const b = browserCommand(process.env);
      if (!b || !(await openUrl(b, url))) process.stderr.write('agentteam: no browser to open it (set $BROWSER); open the link above yourself\n');
    },
  };
}
