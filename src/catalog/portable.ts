// Owns the portable form of catalog data (descriptors with TypeBox schemas): JSON-safe, with TypeBox's registry symbols
// (Kind, OptionalKind, …) kept as "@@<key>" fields so a build can freeze the catalog and Value.Check still works after.
const SYMBOL_PREFIX = '@@';

/** A JSON-safe copy of plain data; throws on anything a JSON round trip would lose or change (fail at build time). */
export function toPortable(value: unknown, path = '$'): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`portable: ${path} is not a finite number`);
    return value;
  }
  if (Array.isArray(value)) return value.map((v, i) => toPortable(v, `${path}[${i}]`));
  if (typeof value !== 'object') throw new Error(`portable: ${path} is a ${typeof value}`);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw new Error(`portable: ${path} is not a plain object`);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    if (k.startsWith(SYMBOL_PREFIX)) throw new Error(`portable: ${path} has a key that starts with ${SYMBOL_PREFIX}`);
    const v = (value as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = toPortable(v, `${path}.${k}`);
  }
  for (const s of Object.getOwnPropertySymbols(value)) {
    const key = Symbol.keyFor(s);
    if (key === undefined) throw new Error(`portable: ${path} has a symbol outside the global registry`);
    if (!Object.prototype.propertyIsEnumerable.call(value, s)) continue;
    const v = (value as Record<symbol, unknown>)[s];
    if (v !== undefined) out[`${SYMBOL_PREFIX}${key}`] = toPortable(v, `${path}[${key}]`);
  }
  return out;
}

/** The parsed portable data with its registry symbols restored, as a fresh copy (no deletes: objects stay fast). */
export function fromPortable<T>(value: T): T {
  if (Array.isArray(value)) return value.map(fromPortable) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string | symbol, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k.startsWith(SYMBOL_PREFIX)) out[Symbol.for(k.slice(SYMBOL_PREFIX.length))] = fromPortable(v);
    else out[k] = fromPortable(v);
  }
  return out as T;
}

const SCHEMAS = ['input', 'output'] as const;

/**
 * Exec domains as JSON text for a build to embed: each descriptor's schemas (input, output) are nested portable JSON
 * strings, so loading the text parses only the small fields and a schema is parsed when it is read.
 */
export function freezeExecDomains(domains: readonly object[]): string {
  return JSON.stringify(
    domains.map((d) => {
      const { descriptors, ...rest } = d as { descriptors?: readonly Record<string, unknown>[] };
      const frozen = descriptors?.map((a) => ({ ...a, ...Object.fromEntries(SCHEMAS.map((k) => [k, JSON.stringify(toPortable(a[k], `${String(a.domain)}/${String(a.action)}.${k}`))])) }));
      return toPortable({ ...rest, ...(frozen ? { descriptors: frozen } : {}) });
    }),
  );
}

/** The domains of freezeExecDomains' text; each schema is parsed and its registry symbols restored on first read. */
export function thawExecDomains<T>(text: string): T {
  const parsed = JSON.parse(text) as Array<{ descriptors?: Array<Record<string, unknown>> }>;
  for (const d of parsed) {
    for (const a of d.descriptors ?? []) {
      for (const k of SCHEMAS) {
        const raw = a[k] as string;
        let thawed: unknown;
        Object.defineProperty(a, k, { enumerable: true, configurable: true, get: () => (thawed ??= fromPortable(JSON.parse(raw))) });
      }
    }
  }
  return parsed as T;
}
