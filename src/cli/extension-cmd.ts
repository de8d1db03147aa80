// Owns `agentteam extension install|ls|suspend|resume`: the owner installs an App (github, gitea) whose provider
// credential (a token from a named environment variable, never argv; or a GitHub App's id, installation and key file)
// is stored server-side only.
import { readFileSync } from 'node:fs';
import type { CommandBody, CommandSpec } from './args.js';
import { EXTENSION_NAMES } from '../domains/extension/names.js';
import { CliError } from './cli-error.js';
import { ownerRequest, unwrap, type CliContext } from './daemon-client.js';
import { printJson } from './output.js';

interface InstallOptions { baseUrl: string; tokenEnv?: string; appId?: string; installationId?: string; privateKeyFile?: string; pollInterval?: string; webhookSecretEnv?: string }

export function extensionCommand({ home }: CliContext): CommandBody {
  const name = { name: '<name>', desc: 'the App', choices: EXTENSION_NAMES };
  const install: CommandSpec = {
    name: 'install',
    desc: 'install or replace an App, e.g. agentteam extension install github --base-url https://api.github.com --token-env GH_TOKEN',
    args: [name],
    options: [
      { flags: '--base-url <url>', desc: 'the provider API root: https://api.github.com, or https://HOST/api/v1 for Gitea', required: true },
      { flags: '--token-env <var>', desc: 'environment variable holding the access token' },
      { flags: '--app-id <n>', desc: 'GitHub App id (with --installation-id and --private-key-file)' },
      { flags: '--installation-id <n>', desc: "the App's installation id" },
      { flags: '--private-key-file <file>', desc: "the App's private key (PEM), kept by the server" },
      { flags: '--poll-interval <seconds>', desc: 'seconds between polls of watched PRs, 1..3600 (default 60)' },
      { flags: '--webhook-secret-env <var>', desc: 'environment variable holding the webhook secret (≥ 16 chars): a delivery polls at once' },
    ],
    run: async (opts, [n]) => {
      const o = opts as InstallOptions;
      const app = o.appId !== undefined || o.installationId !== undefined || o.privateKeyFile !== undefined;
      if (app === (o.tokenEnv !== undefined)) throw new CliError('give --token-env VAR, or --app-id N --installation-id N --private-key-file FILE', 2);
      let cred: Record<string, unknown>;
      if (app) {
        const appId = Number(o.appId);
        const installationId = Number(o.installationId);
        if (!Number.isSafeInteger(appId) || appId < 1 || !Number.isSafeInteger(installationId) || installationId < 1 || !o.privateKeyFile) throw new CliError('--app-id and --installation-id are positive integers; --private-key-file is required with them', 2);
        let privateKey: string;
        try {
          privateKey = readFileSync(o.privateKeyFile, 'utf8');
        } catch {
          throw new CliError('cannot read --private-key-file', 2);
        }
        cred = { appId, installationId, privateKey };
      } else {
        // Security invariant: the token comes from the environment, never from argv, and is never printed.
        const token = process.env[o.tokenEnv!];
        if (!token) throw new CliError(`environment variable ${o.tokenEnv} is not set`, 2);
        cred = { token };
      }
      const secs = o.pollInterval === undefined ? undefined : Number(o.pollInterval);
      if (secs !== undefined && (!Number.isInteger(secs) || secs < 1 || secs > 3600)) throw new CliError('--poll-interval must be 1..3600 seconds', 2);
      const webhookSecret = o.webhookSecretEnv === undefined ? undefined : process.env[o.webhookSecretEnv];
      if (o.webhookSecretEnv !== undefined && !webhookSecret) throw new CliError(`environment variable ${o.webhookSecretEnv} is not set`, 2);
      printJson(unwrap(await ownerRequest(home(), 'POST', '/api/daemon/extensions', { name: n, baseUrl: o.baseUrl, ...cred, ...(secs ? { pollIntervalMs: secs * 1000 } : {}), ...(webhookSecret ? { webhookSecret } : {}) })));
    },
  };
  const status = (['suspend', 'resume'] as const).map((cmd): CommandSpec => ({
    name: cmd,
    desc: `${cmd} an App: ${cmd === 'suspend' ? 'every call and poll is refused (provider_unauthorized)' : 'calls and polls work again'}`,
    args: [name],
    run: async (_o, [n]) => printJson(unwrap(await ownerRequest(home(), 'POST', `/api/daemon/extensions/${n}/status`, { status: cmd === 'suspend' ? 'suspended' : 'active' }))),
  }));
  return {
    sub: [install, { name: 'ls', desc: 'list installed Apps (never their tokens)', run: async () => printJson(unwrap(await ownerRequest(home(), 'GET', '/api/daemon/extensions'))) }, ...status],
  };
}
