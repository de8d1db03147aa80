// Owns buildRuntimeCatalog(): the immutable per-authorization RuntimeCatalog (built-ins + verified Extension snapshot) and its version.
import { createHash } from 'node:crypto';
import { Value } from '@sinclair/typebox/value';
import { actionKey } from './catalog.js';
import { canonical } from '../shared/canonical-json.js';
import type { ActionDescriptor, DescriptorCatalog, ExtensionPins, RuntimeCatalog } from './types.js';

const NAME = /^[a-z][a-z0-9-]{0,31}$/;
const RISKS = new Set(['read', 'write', 'destructive']);
const POLICIES = new Set(['cursor', 'bounded', 'narrow', 'mutation']);
const SUMMARY = /^[\x20-\x7e]{1,120}$/;

/** A ReadonlyMap that cannot be changed after construction (no set/delete/clear, frozen instance). */
class FrozenMap<K, V> implements ReadonlyMap<K, V> {
  readonly #m: Map<K, V>;
  constructor(entries: Iterable<readonly [K, V]>) {
    this.#m = new Map(entries);
    Object.freeze(this);
  }
  get size() {
    return this.#m.size;
  }
  get(k: K) {
    return this.#m.get(k);
  }
  has(k: K) {
    return this.#m.has(k);
  }
  forEach(fn: (v: V, k: K, m: ReadonlyMap<K, V>) => void, thisArg?: unknown) {
    this.#m.forEach((v, k) => fn.call(thisArg, v, k, this));
  }
  entries() {
    return this.#m.entries();
  }
  keys() {
    return this.#m.keys();
  }
  values() {
    return this.#m.values();
  }
  [Symbol.iterator]() {
    return this.#m.entries();
  }
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Reflect.ownKeys(v)) deepFreeze((v as Record<string | symbol, unknown>)[k]);
  }
  return v;
}

export function catalogVersion(actions: readonly ActionDescriptor[]): string {
  const surface = actions.map((d) => ({ domain: d.domain, action: d.action, summary: d.summary, input: d.input, output: d.output, example: d.example, risk: d.risk, resultPolicy: d.resultPolicy, operations: d.operations }));
  return `c1-${createHash('sha256').update(canonical(surface)).digest('hex').slice(0, 24)}`;
}

/** Rejects an Extension descriptor that is malformed, shadows a built-in domain, or whose example fails its own schema. */
function verifyExtension(d: ActionDescriptor, builtinDomains: Set<string>): void {
  const k = actionKey(String(d.domain), String(d.action));
  if (!NAME.test(d.domain) || !NAME.test(d.action)) throw new Error(`extension: bad action name ${k}`);
  if (builtinDomains.has(d.domain)) throw new Error(`extension: ${k} shadows a built-in domain`);
  if (!RISKS.has(d.risk) || !POLICIES.has(d.resultPolicy)) throw new Error(`extension: bad risk or policy for ${k}`);
  if ((d.risk === 'read') !== (d.resultPolicy !== 'mutation')) throw new Error(`extension: ${k} mixes read risk and mutation policy`);
  // Security invariant: only built-ins declare per-operation policy; an Extension cannot mark a side effect as a read.
  if ((d as { operations?: unknown }).operations !== undefined) throw new Error(`extension: ${k} may not declare operations`);
  // One printable line (help text is built from it; a line break would forge more of it).
  if (typeof d.summary !== 'string' || !/^[\x20-\x7e]{1,200}$/.test(d.summary)) throw new Error(`extension: ${k} needs a short summary`);
  for (const s of [d.input, d.output]) {
    if (!s || s.type !== 'object' || s.additionalProperties !== false) throw new Error(`extension: ${k} schemas must be strict objects`);
  }
  if (!Value.Check(d.input, d.example)) throw new Error(`extension: ${k} example does not match its input schema`);
}

/**
 * The immutable RuntimeCatalog one runtime authorization binds: the built-in descriptors plus the verified Extension
 * snapshot with its pins. Throws when the built-in inventory or any extension fails verification.
 */
export function buildRuntimeCatalog(builtins: DescriptorCatalog, extensions: readonly ActionDescriptor[] = [], pins?: ExtensionPins, summaries?: ReadonlyMap<string, string>): RuntimeCatalog {
  const domains = new Set(builtins.domains());
  const all = [...builtins.actions];
  const keys = new Set(all.map((d) => actionKey(d.domain, d.action)));
  for (const d of extensions) {
    verifyExtension(d, domains);
    const k = actionKey(d.domain, d.action);
    if (keys.has(k)) throw new Error(`extension: duplicate action ${k}`);
    keys.add(k);
    all.push(d);
  }
  // Security invariant: the catalog an authorization binds is immutable for the process's lifetime.
  deepFreeze(all);
  // Every Extension action must be pinned (its definition digest), so a forwarded call always carries its pin.
  for (const d of extensions) if (pins && !pins.digests.has(d.domain)) throw new Error(`extension: ${d.domain} has no pinned digest`);
  const frozenPins = pins && Object.freeze({ catalogVersion: pins.catalogVersion, digests: new FrozenMap(pins.digests) });
  const extDomains = new Set(extensions.map((d) => d.domain));
  for (const [domain, summary] of summaries ?? []) {
    // A summary is one short help line: printable, no line break, for an Extension domain of this catalog.
    if (!extDomains.has(domain) || typeof summary !== 'string' || !SUMMARY.test(summary)) throw new Error(`extension: ${domain} needs a short one-line summary`);
  }
  const frozenSummaries = summaries && summaries.size > 0 ? new FrozenMap([...summaries]) : undefined;
  const actionsVersion = catalogVersion(all);
  // The summaries are part of what a runtime sees (its help), so they are part of its catalog's version.
  const version = frozenSummaries ? `c1-${createHash('sha256').update(canonical([actionsVersion, [...frozenSummaries].sort()])).digest('hex').slice(0, 24)}` : actionsVersion;
  const catalog: RuntimeCatalog = { version, actions: new FrozenMap(all.map((d) => [actionKey(d.domain, d.action), d] as const)), ...(frozenPins ? { extensions: frozenPins } : {}), ...(frozenSummaries ? { summaries: frozenSummaries } : {}) };
  return Object.freeze(catalog);
}
