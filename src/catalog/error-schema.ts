// Owns the shared Exec envelope schemas: the closed error envelope (--error-schema) and the closed mutation receipt.
import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_CODES } from '../shared/errors.js';
import { receiptSelectors, type ReadBack } from '../domains/registry.js';
import { ID_PATTERN, SELECTOR_PATTERN, Strict } from './schemas.js';

/** The action that reads a resource back from each selector (each domain declares its own). */
export const RECEIPT_SELECTOR_DOMAIN: Readonly<Record<string, ReadBack>> = Object.freeze({ ...receiptSelectors() });
/** Selector names a mutation receipt may carry: allowlisted resource ids only. */
export const RECEIPT_SELECTOR_KEYS: readonly string[] = Object.freeze(Object.keys(RECEIPT_SELECTOR_DOMAIN));
export type ReceiptSelectorKey = string;

export const MutationReceipt = Strict(
  {
    selectors: Strict(Object.fromEntries(RECEIPT_SELECTOR_KEYS.map((k) => [k, Type.Optional(Type.String({ pattern: ID_PATTERN }))]))),
    revision: Type.Optional(Type.Integer({ minimum: 0 })),
    idempotencyKey: Type.Optional(Type.String({ pattern: SELECTOR_PATTERN })),
    retrieval: Type.Optional(Type.String({ maxLength: 512, description: 'The command that reads the applied result back.' })),
  },
  'What a mutation that committed but could not be printed changed.',
);

export const ErrorMetadata = Strict({
  mutation_applied: Type.Literal(true),
  mutation_receipt: MutationReceipt,
});

const codes = Object.keys(ERROR_CODES).map((c) => Type.Literal(c));

export const ErrorEnvelope = Strict(
  {
    ok: Type.Literal(false),
    error: Strict({
      code: Type.Union(codes),
      message: Type.String({ maxLength: 1000 }),
      hint: Type.Optional(Type.String({ maxLength: 1000 })),
      next: Type.Optional(Type.String({ maxLength: 1000 })),
      metadata: Type.Optional(ErrorMetadata),
    }),
  },
  'Every failed `agentteam exec` call prints this envelope on stdout.',
);

export function successEnvelopeSchema(output: TSchema): TSchema {
  return Strict({ ok: Type.Literal(true), data: output });
}
