// Owns the daemon side of Extension snapshots: fetch the agent's snapshot at authorization, verify every definition's
// digest and the catalog version against the content, rebuild strict schemas, and freeze the result into the
// runtime's immutable RuntimeCatalog beside the built-ins. A newer server catalog never changes a live runtime's.
import { buildRuntimeCatalog } from '../../catalog/runtime-catalog.js';
import type { ActionDescriptor, DescriptorCatalog, RuntimeCatalog } from '../../catalog/types.js';
import { definitionDigest, extensionCatalogVersion } from './definitions.js';
import type { ExtensionApi } from './contract.js';
import { schemaFromJson } from './schema-json.js';

const MAX_DEFINITIONS = 16;
const MAX_ACTIONS = 32;

/** The descriptors and pins of a served snapshot; throws when anything fails verification (fail closed). */
export function verifySnapshot(snap: unknown): { descriptors: ActionDescriptor[]; catalogVersion: string; digests: Map<string, string>; summaries: Map<string, string> } {
  const s = snap as { catalogVersion?: unknown; definitions?: unknown };
  if (!s || typeof s.catalogVersion !== 'string' || !Array.isArray(s.definitions) || s.definitions.length > MAX_DEFINITIONS) throw new Error('extension snapshot: malformed');
  const digests = new Map<string, string>();
  const summaries = new Map<string, string>();
  const descriptors: ActionDescriptor[] = [];
  for (const entry of s.definitions as { name?: unknown; digest?: unknown; definition?: unknown }[]) {
    const def = entry?.definition as { name?: unknown; summary?: unknown; actions?: unknown } | undefined;
    if (typeof entry?.name !== 'string' || typeof entry.digest !== 'string' || !def || def.name !== entry.name) throw new Error('extension snapshot: malformed definition');
    // Security invariant: a definition is used only if its content hashes to the digest that will be pinned.
    if (definitionDigest(def) !== entry.digest) throw new Error(`extension snapshot: ${entry.name} does not match its digest`);
    if (digests.has(entry.name)) throw new Error(`extension snapshot: ${entry.name} listed twice`);
    digests.set(entry.name, entry.digest);
    // The domain's help line, covered by the digest (buildRuntimeCatalog checks it is one short printable line).
    if (typeof def.summary !== 'string') throw new Error(`extension snapshot: ${entry.name} has no summary`);
    summaries.set(entry.name, def.summary);
    if (!Array.isArray(def.actions) || def.actions.length === 0 || def.actions.length > MAX_ACTIONS) throw new Error(`extension snapshot: ${entry.name} has no actions`);
    for (const a of def.actions as Record<string, unknown>[]) {
      descriptors.push({
        domain: entry.name,
        action: String(a.action),
        summary: String(a.summary),
        input: schemaFromJson(a.input),
        output: schemaFromJson(a.output),
        example: a.example,
        risk: a.risk as ActionDescriptor['risk'],
        resultPolicy: a.resultPolicy as ActionDescriptor['resultPolicy'],
      });
    }
  }
  if (extensionCatalogVersion([...digests].map(([name, digest]) => ({ name, digest }))) !== s.catalogVersion) throw new Error('extension snapshot: catalog version does not match its definitions');
  return { descriptors, catalogVersion: s.catalogVersion, digests, summaries };
}

/**
 * Builds each runtime's RuntimeCatalog from the agent's current snapshot. The last built catalog is reused while the
 * snapshot's version is unchanged (built catalogs are immutable). A snapshot that cannot be fetched or verified leaves
 * the runtime with the built-ins only (its Extension actions fail closed as unknown), and is reported.
 */
export class RuntimeCatalogs {
  private last: { key: string; catalog: RuntimeCatalog } | undefined;
  private readonly builtins: RuntimeCatalog;

  constructor(
    private readonly descriptors: DescriptorCatalog,
    private readonly onError: (e: unknown) => void,
  ) {
    this.builtins = buildRuntimeCatalog(descriptors);
  }

  async forAgent(api: Pick<ExtensionApi, 'snapshot'>): Promise<RuntimeCatalog> {
    try {
      const snap = await api.snapshot({}, { signal: AbortSignal.timeout(5000) });
      const key = JSON.stringify([snap.catalogVersion, snap.definitions.map((d) => d.digest)]);
      if (this.last?.key === key) return this.last.catalog;
      const v = verifySnapshot(snap);
      const catalog = v.descriptors.length === 0 ? this.builtins : buildRuntimeCatalog(this.descriptors, v.descriptors, { catalogVersion: v.catalogVersion, digests: v.digests }, v.summaries);
      this.last = { key, catalog };
      return catalog;
    } catch (e) {
      this.onError(e);
      return this.builtins;
    }
  }
}
