// Owns `agentteam extension install|ls|suspend|resume`: the owner installs an App (github, gitea) whose provider
// credential is read from a named environment variable (never argv) and stored server-side only.
import { Argument, Command } from 'commander';
import { EXTENSION_NAMES } from '../domains/extension/definitions.js';
import { CliError, ownerRequest, type Envelope } from './daemon-client.js';
import { printJson } from './output.js';

function unwrap(r: { status: number; body: Envelope }): unknown {
  if (r.body.ok) return r.body.data;
  const e = r.body.error;
  throw new CliError(`${e?.code ?? 'error'}: ${e?.message ?? 'request failed'}${e?.hint ? ` (${e.hint})` : ''}`, 1);
}

export function extensionCommand(home: () => string): Command {
  const ext = new Command('extension').description('App-hosted Extensions agents use as agentteam exec github|gitea (owner)');
  const name = new Argument('<name>', 'the App').choices([...EXTENSION_NAMES]);
  ext
    .command('install')
    .description('install or replace an App, e.g. agentteam extension install github --base-url https://api.github.com --token-env GH_TOKEN')
    .addArgument(name)
    .requiredOption('--base-url <url>', 'the provider API root (GitHub: https://api.github.com; Gitea: https://HOST/api/v1)')
    .requiredOption('--token-env <var>', 'environment variable holding the installation token')
    .option('--poll-interval <seconds>', 'how often watched PRs are polled (1..3600, default 60)')
    .option('--webhook-secret-env <var>', 'environment variable holding the webhook secret (≥ 16 chars); deliveries to /v1/extensions/NAME/webhook then poll at once')
    .action(async (n: string, o: { baseUrl: string; tokenEnv: string; pollInterval?: string; webhookSecretEnv?: string }) => {
      // Security invariant: the token comes from the environment, never from argv, and is never printed.
      const token = process.env[o.tokenEnv];
      if (!token) throw new CliError(`environment variable ${o.tokenEnv} is not set`, 2);
      const secs = o.pollInterval === undefined ? undefined : Number(o.pollInterval);
      if (secs !== undefined && (!Number.isInteger(secs) || secs < 1 || secs > 3600)) throw new CliError('--poll-interval must be 1..3600 seconds', 2);
      const webhookSecret = o.webhookSecretEnv === undefined ? undefined : process.env[o.webhookSecretEnv];
      if (o.webhookSecretEnv !== undefined && !webhookSecret) throw new CliError(`environment variable ${o.webhookSecretEnv} is not set`, 2);
      printJson(unwrap(await ownerRequest(home(), 'POST', '/api/daemon/extensions', { name: n, baseUrl: o.baseUrl, token, ...(secs ? { pollIntervalMs: secs * 1000 } : {}), ...(webhookSecret ? { webhookSecret } : {}) })));
    });
  ext
    .command('ls')
    .description('list installed Apps (never their tokens)')
    .action(async () => printJson(unwrap(await ownerRequest(home(), 'GET', '/api/daemon/extensions'))));
  for (const [cmd, status] of [['suspend', 'suspended'], ['resume', 'active']] as const) {
    ext
      .command(cmd)
      .description(`${cmd} an App: ${cmd === 'suspend' ? 'every call and poll is refused (provider_unauthorized)' : 'calls and polls work again'}`)
      .addArgument(new Argument('<name>', 'the App').choices([...EXTENSION_NAMES]))
      .action(async (n: string) => printJson(unwrap(await ownerRequest(home(), 'POST', `/api/daemon/extensions/${n}/status`, { status }))));
  }
  return ext;
}
