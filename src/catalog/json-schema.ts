// Owns the standalone machine-readable schemas printed by --input-schema, --output-schema and --error-schema.
import type { TSchema } from '@sinclair/typebox';
import { errorEnvelopeSchema } from './error-schema.js';
import type { ActionDescriptor, DescriptorCatalog } from './types.js';

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** A plain JSON copy of a TypeBox schema (symbols dropped), with a dialect and a title so it stands alone. */
export function standalone(schema: TSchema, title: string): Record<string, unknown> {
  return { $schema: DIALECT, title, ...(JSON.parse(JSON.stringify(schema)) as Record<string, unknown>) };
}

export const inputSchemaJson = (d: ActionDescriptor) => standalone(d.input, `agentteam exec ${d.domain} ${d.action} input`);
export const outputSchemaJson = (d: ActionDescriptor) => standalone(d.output, `agentteam exec ${d.domain} ${d.action} output (the data of {"ok":true,"data":…})`);
export const errorSchemaJson = (catalog: Pick<DescriptorCatalog, 'receiptSelectors'>) => standalone(errorEnvelopeSchema(catalog), 'agentteam exec error envelope');
