// Owns the per-operation field rule of the workflow actions: each operation takes exactly its fields (required ones
// present, others absent), so a field meant for another operation is a typed error instead of being silently ignored.
import { AppError } from '../../../shared/errors.js';

/** `{ create: ['name', 'steps'], list: ['limit?', …] }`: a trailing `?` marks an optional field. */
export type FieldRule = Readonly<Record<string, readonly string[]>>;
const SELECTORS = ['requestId', 'idempotencyKey'];

export function checkFields(rule: FieldRule, input: Record<string, unknown>, mutation: boolean): void {
  const op = input.operation as string;
  const spec = rule[op] ?? [];
  const allowed = new Set(['operation', ...spec.map((f) => f.replace(/\?$/, '')), ...(mutation ? SELECTORS : [])]);
  for (const f of spec) if (!f.endsWith('?') && input[f] === undefined) throw new AppError('validation_failed', `operation ${op} needs ${f}`);
  for (const k of Object.keys(input)) if (input[k] !== undefined && !allowed.has(k)) throw new AppError('validation_failed', `operation ${op} does not take ${k}`);
}
