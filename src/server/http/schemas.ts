// Owns strict request-body validation: each route's TypeBox schema (unknown fields rejected) compiled once by ajv, plus snake_case aliases.
import type { TSchema } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import { AppError } from '../../shared/errors.js';
import { snakeCase } from './route.js';

/**
 * The documented legacy snake_case request aliases of a body schema: the snake_case spelling of each top-level field
 * (e.g. expected_revision → expectedRevision). Accepted on input, never echoed.
 */
export function aliasesOf(schema: TSchema | undefined): Readonly<Record<string, string>> {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  return Object.fromEntries(Object.keys(props).flatMap((k) => (snakeCase(k) !== k ? [[snakeCase(k), k]] : [])));
}

/** Renames top-level aliases to their canonical names; giving both spellings is invalid_input. */
export function applyAliases(body: unknown, aliases: Readonly<Record<string, string>>): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    const canon = Object.prototype.hasOwnProperty.call(aliases, k) ? aliases[k]! : k;
    if (Object.prototype.hasOwnProperty.call(out, canon)) throw new AppError('invalid_input', `field ${canon} was given twice (as ${canon} and its alias)`);
    out[canon] = v;
  }
  return out;
}

/** One ajv instance per server (no module singletons); each schema is compiled once, on first use. */
export class BodyValidator {
  private readonly ajv = new Ajv({ strict: true, allErrors: false });
  private readonly fns = new Map<TSchema, ValidateFunction>();

  /** Validates strictly; unknown fields and wrong types are validation_failed naming the field. */
  check<B>(schema: TSchema, body: unknown): B {
    let fn = this.fns.get(schema);
    if (!fn) this.fns.set(schema, (fn = this.ajv.compile(schema)));
    if (fn(body)) return body as B;
    const e = fn.errors?.[0];
    const where = e?.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'body';
    const msg =
      e?.keyword === 'additionalProperties'
        ? `unknown field ${JSON.stringify((e.params as { additionalProperty: string }).additionalProperty)}${where === 'body' ? '' : ` in ${where}`}`
        : `${where} ${e?.message ?? 'is invalid'}`;
    throw new AppError('validation_failed', msg);
  }
}
