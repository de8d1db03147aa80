// Owns descriptor schema validation without code generation (fast CLI start): the first failing path and a bounded message.
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export type Validation = { ok: true } | { ok: false; path: string; message: string };

const MAX_PART = 160;
export const clip = (s: string) => (s.length > MAX_PART ? `${s.slice(0, MAX_PART - 1)}…` : s);

/** A readable message for a closed union of literals; otherwise the validator's own message. */
export function describe(schema: TSchema, fallback: string): string {
  const options = (schema as { anyOf?: TSchema[] }).anyOf;
  if (Array.isArray(options) && options.every((o) => 'const' in o || o.type === 'null')) {
    return `must be one of: ${options.map((o) => ('const' in o ? String(o.const) : 'null')).join(', ')}`;
  }
  return fallback;
}

/**
 * Validates `value` against a descriptor schema. Unknown fields are errors (schemas are additionalProperties:false).
 * The message names the failing JSON pointer and never echoes the value itself.
 */
export function validateValue(schema: TSchema, value: unknown): Validation {
  if (Value.Check(schema, value)) return { ok: true };
  const first = Value.Errors(schema, value).First();
  if (!first) return { ok: false, path: '', message: 'input does not match the schema' };
  const path = clip(first.path || '/');
  return { ok: false, path, message: `${path}: ${clip(describe(first.schema, first.message))}` };
}
