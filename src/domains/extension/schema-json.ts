// Owns turning an Extension's plain JSON Schema (as served) back into a TypeBox schema, for a closed subset of keywords;
// anything outside it is refused, so a served definition can never smuggle a keyword the validators treat differently.
import { Type, type TSchema } from '@sinclair/typebox';

const COMMON = new Set(['description']);
const BY_TYPE: Record<string, Set<string>> = {
  object: new Set(['type', 'properties', 'required', 'additionalProperties']),
  string: new Set(['type', 'minLength', 'maxLength', 'pattern']),
  integer: new Set(['type', 'minimum', 'maximum']),
  number: new Set(['type', 'minimum', 'maximum']),
  boolean: new Set(['type']),
  array: new Set(['type', 'items', 'maxItems', 'minItems']),
};
const MAX_DEPTH = 8;

function fail(path: string, why: string): never {
  throw new Error(`extension schema ${path || '/'}: ${why}`);
}

function opts(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of [...keys, 'description']) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/** A TypeBox schema equal in meaning to `json`; throws on an unsupported keyword, a loose object or excessive depth. */
export function schemaFromJson(json: unknown, path = '', depth = 0): TSchema {
  if (depth > MAX_DEPTH) fail(path, 'too deep');
  if (!json || typeof json !== 'object' || Array.isArray(json)) fail(path, 'not an object');
  const o = json as Record<string, unknown>;
  if ('const' in o) {
    for (const k of Object.keys(o)) if (k !== 'const' && k !== 'type' && !COMMON.has(k)) fail(path, `unsupported keyword ${k}`);
    const c = o.const;
    if (typeof c !== 'string' && typeof c !== 'number' && typeof c !== 'boolean') fail(path, 'const must be a scalar');
    return Type.Literal(c, opts(o, []));
  }
  if ('anyOf' in o) {
    for (const k of Object.keys(o)) if (k !== 'anyOf' && !COMMON.has(k)) fail(path, `unsupported keyword ${k}`);
    if (!Array.isArray(o.anyOf) || o.anyOf.length === 0 || o.anyOf.length > 32) fail(path, 'anyOf must list 1..32 schemas');
    return Type.Union(o.anyOf.map((s, i) => schemaFromJson(s, `${path}/anyOf/${i}`, depth + 1)), opts(o, []));
  }
  const type = o.type;
  const allowed = typeof type === 'string' ? BY_TYPE[type] : undefined;
  if (!allowed) fail(path, 'unsupported type');
  for (const k of Object.keys(o)) if (!allowed.has(k) && !COMMON.has(k)) fail(path, `unsupported keyword ${k}`);
  switch (type) {
    case 'object': {
      if (o.additionalProperties !== false) fail(path, 'objects must be strict (additionalProperties: false)');
      const props = (o.properties ?? {}) as Record<string, unknown>;
      if (typeof props !== 'object' || Array.isArray(props)) fail(path, 'bad properties');
      const required = new Set(Array.isArray(o.required) ? (o.required as unknown[]).map(String) : []);
      const built: Record<string, TSchema> = {};
      for (const [k, v] of Object.entries(props)) {
        const s = schemaFromJson(v, `${path}/${k}`, depth + 1);
        built[k] = required.has(k) ? s : Type.Optional(s);
      }
      for (const r of required) if (!(r in props)) fail(path, `required ${r} has no property`);
      return Type.Object(built, { additionalProperties: false, ...opts(o, []) });
    }
    case 'string':
      return Type.String(opts(o, ['minLength', 'maxLength', 'pattern']));
    case 'integer':
      return Type.Integer(opts(o, ['minimum', 'maximum']));
    case 'number':
      return Type.Number(opts(o, ['minimum', 'maximum']));
    case 'boolean':
      return Type.Boolean(opts(o, []));
    default:
      return Type.Array(schemaFromJson(o.items, `${path}/items`, depth + 1), opts(o, ['minItems', 'maxItems']));
  }
}
