// Owns the model-visible form of provider failures: provider_unauthorized (the App's installation: missing, suspended,
// credential refused, repository not granted) vs provider_failed (rate limited with its reset, not found, provider
// down, unreadable answer), each with a hint and a next step; the stale-catalog conflict. Never a provider body.
import type { CallOutcome } from './contract.js';
import type { ProviderError, ProviderFailure } from './provider.js';

export type Failed = Extract<CallOutcome, { outcome: 'failed' }>;

/** `20261205T101500Z`, the time form model-visible output uses. */
const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');

const owner = (name: string) => `ask the workspace owner to run: agentteam extension install ${name} --base-url URL --token-env VAR`;

export function providerFailure(name: string, e: ProviderError | { kind: 'unauthorized'; reason: ProviderFailure; resetAt?: number }, what?: string): Failed {
  const f = (code: Failed['error']['code'], message: string, hint: string, next?: string): Failed => ({ outcome: 'failed', error: { code, message, hint, ...(next ? { next } : {}) } });
  switch (e.reason) {
    case 'not_installed':
      return f('provider_unauthorized', `the ${name} App is not installed in this workspace`, 'retrying will not help until it is installed', owner(name));
    case 'suspended':
      return f('provider_unauthorized', `the ${name} App installation is suspended`, 'retrying will not help until the installation is resumed', `ask the workspace owner to run: agentteam extension resume ${name}`);
    case 'revoked':
      return f('provider_unauthorized', `${name} refused the App installation's credential (revoked or expired)`, 'retrying will not help until the installation has a valid credential', owner(name));
    case 'not_granted':
      return f('provider_unauthorized', `the ${name} App installation is not granted access to ${what ?? 'this repository'}`, 'retrying will not help until the repository is granted to the App', `ask the workspace owner to grant the ${name} App access to the repository`);
    case 'rate_limited':
      return f('provider_failed', `${name} rate limit reached${e.resetAt ? `; requests resume at ${stamp(e.resetAt)}` : ''}`, 'retry the same call after the reset time', `agentteam exec ${name} list-watches`);
    case 'not_found':
      return f('provider_failed', `${name} has no ${what ?? 'such pull request'} (or the App cannot see it)`, 'check the repo and number', `agentteam exec ${name} watch-pr --help`);
    case 'bad_response':
      return f('provider_failed', `${name} sent an answer that could not be read`, 'retry in a few minutes');
    default:
      return f('provider_failed', `${name} is not answering (server error or timeout)`, 'retry in a few minutes', `agentteam exec ${name} list-watches`);
  }
}

/** The runtime's pinned definition digest or catalog version is no longer the server's. */
export function staleCatalog(name: string): Failed {
  return {
    outcome: 'failed',
    error: {
      code: 'conflict',
      message: `stale_catalog: this runtime's ${name} catalog is out of date (the server's Extension catalog changed)`,
      hint: 'restart the runtime to load the new catalog (a new turn starts one); retrying in this runtime will not help',
    },
  };
}
