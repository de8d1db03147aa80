// Owns the daemon-side descriptor validator: ajv 8 strict, each schema compiled lazily once per validator instance.
import type { TSchema } from '@sinclair/typebox';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { clip, describe, type Validation } from '../../catalog/validate.js';

/**
 * Validates request bodies against descriptor input schemas with ajv (strict mode; schemas are additionalProperties:false,
 * so unknown fields fail). `unicode: false` counts string length in UTF-16 units exactly like the CLI's TypeBox check.
 */
export class DescriptorValidator {
  private readonly ajv = new Ajv({ strict: true, allErrors: false, verbose: true, unicode: false });
  private readonly compiled = new WeakMap<TSchema, ValidateFunction>();

  validate(schema: TSchema, value: unknown): Validation {
    let fn = this.compiled.get(schema);
    if (!fn) {
      fn = this.ajv.compile(JSON.parse(JSON.stringify(schema)) as object);
      this.compiled.set(schema, fn);
    }
    if (fn(value)) return { ok: true };
    const errors = fn.errors ?? [];
    const e = errors.find((x) => x.keyword === 'anyOf') ?? errors[0];
    if (!e) return { ok: false, path: '/', message: '/: input does not match the schema' };
    const path = clip(pathOf(e) || '/');
    return { ok: false, path, message: `${path}: ${clip(messageOf(e))}` };
  }
}

function pathOf(e: ErrorObject): string {
  if (e.keyword === 'additionalProperties') return `${e.instancePath}/${String(e.params.additionalProperty)}`;
  if (e.keyword === 'required') return `${e.instancePath}/${String(e.params.missingProperty)}`;
  return e.instancePath;
}

function messageOf(e: ErrorObject): string {
  if (e.keyword === 'additionalProperties') return 'Unexpected property';
  if (e.keyword === 'required') return 'Expected required property';
  if (e.keyword === 'anyOf') return describe(e.parentSchema as TSchema, 'does not match any allowed form');
  return e.message ?? 'is invalid';
}
