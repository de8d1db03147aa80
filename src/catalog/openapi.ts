// Owns the OpenAPI 3.1 document generated from the catalog: one POST path per action plus the catalog route.
import type { TSchema } from '@sinclair/typebox';
import { ERROR_CODES } from '../shared/errors.js';
import { errorEnvelopeSchema, successEnvelopeSchema } from './error-schema.js';
import type { DescriptorCatalog } from './types.js';
import { EXEC_ROOT as ROOT } from '../shared/routes.js';

const json = (s: TSchema) => JSON.parse(JSON.stringify(s)) as Record<string, unknown>;
const pathParams = ['serverId', 'agentId'].map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));

export function openApiDocument(catalog: DescriptorCatalog, version: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {
    [`${ROOT}/catalog`]: {
      get: {
        operationId: 'catalog',
        summary: 'The runtime authorization\'s action catalog.',
        parameters: pathParams,
        responses: { '200': { description: 'The catalog.', content: { 'application/json': { schema: { type: 'object' } } } }, '403': { $ref: '#/components/responses/Error' } },
      },
    },
  };
  const statuses = [...new Set(Object.values(ERROR_CODES))].sort().map(String);
  for (const d of catalog.actions) {
    const errors = Object.fromEntries(statuses.map((s) => [s, { $ref: '#/components/responses/Error' }]));
    paths[`${ROOT}/${d.domain}/${d.action}`] = {
      post: {
        operationId: `${d.domain}_${d.action}`.replace(/-/g, '_'),
        summary: d.summary,
        tags: [d.domain],
        parameters: pathParams,
        'x-agentteam-risk': d.risk,
        'x-agentteam-result-policy': d.resultPolicy,
        ...(d.operations ? { 'x-agentteam-operations': d.operations } : {}),
        requestBody: { required: true, content: { 'application/json': { schema: json(d.input), example: d.example } } },
        responses: { '200': { description: 'Success envelope.', content: { 'application/json': { schema: json(successEnvelopeSchema(d.output)) } } }, ...errors },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'AgentTeam Exec', version },
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      responses: { Error: { description: 'Error envelope.', content: { 'application/json': { schema: json(errorEnvelopeSchema(catalog)) } } } },
    },
  };
}
