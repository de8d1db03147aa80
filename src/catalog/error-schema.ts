// Owns the shared Exec envelope schemas: the closed error envelope (--error-schema) and the closed mutation receipt.
import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_CODES } from '../shared/errors.js';
import { ID_PATTERN, SELECTOR_PATTERN, Strict } from './schemas.js';

/** Selector names a mutation receipt may carry: allowlisted resource ids only. */
export const RECEIPT_SELECTOR_KEYS = ['taskId', 'reviewId'] as const;
export type ReceiptSelectorKey = (typeof RECEIPT_SELECTOR_KEYS)[number];
/** The domain whose `get` action reads a resource back from each selector. */
export const RECEIPT_SELECTOR_DOMAIN: Readonly<Record<ReceiptSelectorKey, string>> = Object.freeze({ taskId: 'task', reviewId: 'review' });

export const MutationReceipt = Strict(
  {
    selectors: Strict({
      taskId: Type.Optional(Type.String({ pattern: ID_PATTERN })),
      reviewId: Type.Optional(Type.String({ pattern: ID_PATTERN })),
    }),
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
