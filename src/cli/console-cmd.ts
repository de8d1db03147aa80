// Owns `agentteam console`: asks the daemon for a one-time login link, prints it, and opens it in the person's browser where one is set.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writePrivateFile } from '../home/home.js';
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

/**
 * The page the browser is given instead of the link. Security invariant: a command line is readable by every local user
 * (`ps`, /proc/PID/cmdline) while the browser starts, and the link logs in whoever opens it first; so the browser gets the
 * path of a 0600 file in the private home, which sends it on to the link (as Jupyter does). The file is overwritten by the
 * next `agentteam console`; the link in it is spent at the first login and expires in 2 minutes either way.
 */
export function writeOpenPage(homeRoot: string, url: string): string {
  const path = join(homeRoot, 'run', 'console-open.html');
  const href = JSON.stringify(url).slice(1, -1).replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
  writePrivateFile(path, `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0;url=${href}"><title>AgentTeam console</title><p><a href="${href}">Open the AgentTeam console</a></p>\n`);
  return pathToFileURL(path).href;
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
      if (!b || !(await openUrl(b, writeOpenPage(home(), url)))) process.stderr.write('agentteam: no browser to open it (set $BROWSER); open the link above yourself\n');
    },
  };
}
