// Owns the CLI's view of Extension actions: read from the runtime's own RuntimeCatalog (GET …/catalog) with the one
// credential read of this invocation, their schemas rebuilt strictly, for help, --input-schema and validation.
import type { ActionDescriptor, DescriptorCatalog } from '../../catalog/types.js';
import { schemaFromJson } from '../../domains/extension/schema-json.js';
import type { CredentialSource } from './credentials.js';
import { loopbackProxyFor } from './proxy.js';
import { sendOnce } from './send.js';

type Cred = Extract<CredentialSource, { ok: true }>;

async function getCatalog(cred: Cred, env: NodeJS.ProcessEnv, domain?: string): Promise<Record<string, unknown>[] | undefined> {
  const url = new URL(`${cred.baseUrl.href.replace(/\/$/, '')}/catalog${domain ? `?domain=${encodeURIComponent(domain)}` : ''}`);
  const r = await sendOnce(url, cred.token, null, loopbackProxyFor(url, env));
  if (r.kind !== 'response' || r.status !== 200) return undefined;
  try {
    const v = JSON.parse(r.body) as { ok?: unknown; data?: { actions?: unknown } };
    return v.ok === true && Array.isArray(v.data?.actions) ? (v.data.actions as Record<string, unknown>[]) : undefined;
  } catch {
    return undefined;
  }
}

/** The domains of the runtime's catalog that are not built-ins (Extensions), or [] when the catalog cannot be read. */
export async function extensionDomains(cred: Cred, env: NodeJS.ProcessEnv, builtins: DescriptorCatalog): Promise<string[]> {
  const list = (await getCatalog(cred, env)) ?? [];
  return [...new Set(list.map((a) => String(a.domain)))].filter((d) => !builtins.domains().includes(d));
}

/** A descriptor-only catalog of one Extension domain from the runtime's catalog; undefined when it has none. */
export async function extensionCatalog(cred: Cred, env: NodeJS.ProcessEnv, domain: string): Promise<DescriptorCatalog | undefined> {
  const list = await getCatalog(cred, env, domain);
  if (!list || list.length === 0) return undefined;
  let actions: ActionDescriptor[];
  try {
    actions = list.map((a) => ({ domain, action: String(a.action), summary: String(a.summary), input: schemaFromJson(a.input), output: schemaFromJson(a.output), example: a.example, risk: a.risk as ActionDescriptor['risk'], resultPolicy: a.resultPolicy as ActionDescriptor['resultPolicy'] }));
  } catch {
    return undefined;
  }
  return { actions, inventory: new Map(), find: (d, n) => actions.find((a) => a.domain === d && a.action === n), domains: () => [domain], summary: () => undefined, receiptSelectors: {} };
}
