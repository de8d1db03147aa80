// Owns strict value validation against TypeBox schemas without code generation (fast start): typed, bounded errors.
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { AppError } from './errors.js';

/** Returns the value typed by the schema, or throws validation_failed naming the first failing path. */
export function parseStrict<T extends TSchema>(schema: T, value: unknown): Static<T> {
  if (Value.Check(schema, value)) return value as Static<T>;
  const first = Value.Errors(schema, value).First();
  const path = first?.path || '/';
  const msg = first ? `${path}: ${first.message}` : 'input does not match the schema';
  throw new AppError('validation_failed', msg.slice(0, 300));
}
