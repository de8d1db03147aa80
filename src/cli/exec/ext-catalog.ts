// Owns the CLI's view of Extension actions: read from the runtime's own RuntimeCatalog (GET …/catalog) with the one
// credential read of this invocation, their schemas rebuilt strictly, for help, --input-schema and validation.
import type { ActionDescriptor, DescriptorCatalog } from '../../catalog/types.js';
import { schemaFromJson } from '../../domains/extension/schema-json.js';
import type { CredentialSource } from './credentials.js';
import { loopbackProxyFor } from './proxy.js';
import { sendOnce } from './send.js';

type Cred = Extract<CredentialSource, { ok: true }>;

async function getCatalog(cred: Cred, env: NodeJS.ProcessEnv, domain?: string): Promise<{ actions: Record<string, unknown>[]; summaries: Record<string, unknown> } | undefined> {
  const url = new URL(`${cred.baseUrl.href.replace(/\/$/, '')}/catalog${domain ? `?domain=${encodeURIComponent(domain)}` : ''}`);
  const r = await sendOnce(url, cred.token, null, loopbackProxyFor(url, env));
  if (r.kind !== 'response' || r.status !== 200) return undefined;
  try {
    const v = JSON.parse(r.body) as { ok?: unknown; data?: { actions?: unknown; summaries?: unknown } };
    if (v.ok !== true || !Array.isArray(v.data?.actions)) return undefined;
    const summaries = v.data.summaries && typeof v.data.summaries === 'object' && !Array.isArray(v.data.summaries) ? (v.data.summaries as Record<string, unknown>) : {};
    return { actions: v.data.actions as Record<string, unknown>[], summaries };
  } catch {
    return undefined;
  }
}

/** A domain's help line as the daemon served it: one printable line, else none (the help says "Extension actions."). */
const summaryOf = (summaries: Record<string, unknown>, domain: string): string | undefined => {
  const s = Object.hasOwn(summaries, domain) ? summaries[domain] : undefined;
  return typeof s === 'string' && /^[\x20-\x7e]{1,120}$/.test(s) ? s : undefined;
};

/** The domains of the runtime's catalog that are not built-ins (Extensions) with their help lines, or [] when the catalog cannot be read. */
export async function extensionDomains(cred: Cred, env: NodeJS.ProcessEnv, builtins: DescriptorCatalog): Promise<{ name: string; summary?: string }[]> {
  const got = await getCatalog(cred, env);
  if (!got) return [];
  const names = [...new Set(got.actions.map((a) => String(a.domain)))].filter((d) => !builtins.domains().includes(d));
  return names.map((name) => {
    const summary = summaryOf(got.summaries, name);
    return summary ? { name, summary } : { name };
  });
}

/** A descriptor-only catalog of one Extension domain from the runtime's catalog; undefined when it has none. */
export async function extensionCatalog(cred: Cred, env: NodeJS.ProcessEnv, domain: string): Promise<DescriptorCatalog | undefined> {
  const got = await getCatalog(cred, env, domain);
  const list = got?.actions;
  if (!got || !list || list.length === 0) return undefined;
  const summary = summaryOf(got.summaries, domain);
  let actions: ActionDescriptor[];
  try {
    actions = list.map((a) => ({ domain, action: String(a.action), summary: String(a.summary), input: schemaFromJson(a.input), output: schemaFromJson(a.output), example: a.example, risk: a.risk as ActionDescriptor['risk'], resultPolicy: a.resultPolicy as ActionDescriptor['resultPolicy'] }));
  } catch {
    return undefined;
  }
  return { actions, inventory: new Map(), find: (d, n) => actions.find((a) => a.domain === d && a.action === n), domains: () => [domain], summary: (d) => (d === domain ? summary : undefined), receiptSelectors: {} };
}
