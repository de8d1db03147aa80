// Owns the shared Exec envelope schemas: the closed error envelope (--error-schema) and the closed mutation receipt.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ERROR_CODES } from '../shared/errors.js';
import { ID_PATTERN, SELECTOR_PATTERN, Strict } from './schemas.js';
import type { DescriptorCatalog } from './types.js';

/** The closed mutation receipt: only the catalog's allowlisted resource-id selectors (each domain declares its own). */
export function mutationReceiptSchema(selectorKeys: readonly string[]) {
  return Strict(
    {
      selectors: Strict(Object.fromEntries(selectorKeys.map((k) => [k, Type.Optional(Type.String({ pattern: ID_PATTERN }))]))),
      revision: Type.Optional(Type.Integer({ minimum: 0 })),
      idempotencyKey: Type.Optional(Type.String({ pattern: SELECTOR_PATTERN })),
      retrieval: Type.Optional(Type.String({ maxLength: 512, description: 'The command that reads the applied result back.' })),
    },
    'What a mutation that committed but could not be printed changed.',
  );
}

export function errorMetadataSchema(selectorKeys: readonly string[]) {
  return Strict({
    mutation_applied: Type.Literal(true),
    mutation_receipt: mutationReceiptSchema(selectorKeys),
  });
}

export type MutationReceiptValue = Static<ReturnType<typeof mutationReceiptSchema>>;
export type ErrorMetadataValue = Static<ReturnType<typeof errorMetadataSchema>>;

const codes = Object.keys(ERROR_CODES).map((c) => Type.Literal(c));

/** Every failed `agentteam exec` call prints this envelope; its receipt allowlists the catalog's selectors. */
export function errorEnvelopeSchema(catalog: Pick<DescriptorCatalog, 'receiptSelectors'>): TSchema {
  return Strict(
    {
      ok: Type.Literal(false),
      error: Strict({
        code: Type.Union(codes),
        message: Type.String({ maxLength: 1000 }),
        hint: Type.Optional(Type.String({ maxLength: 1000 })),
        next: Type.Optional(Type.String({ maxLength: 1000 })),
        metadata: Type.Optional(errorMetadataSchema(Object.keys(catalog.receiptSelectors))),
      }),
    },
    'Every failed `agentteam exec` call prints this envelope on stdout.',
  );
}

export function successEnvelopeSchema(output: TSchema): TSchema {
  return Strict({ ok: Type.Literal(true), data: output });
}
