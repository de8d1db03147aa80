// Owns the `agent` domain descriptors (teammates on this daemon, the safe public projection): inputs, outputs, examples, risk.
import { Type } from '@sinclair/typebox';
import { defineAction } from '../../catalog/descriptors/define.js';
import { Cursor, HasMore, Id, Limit, NextCursor, Strict } from '../../catalog/schemas.js';
import { RUNTIME_KINDS } from '../../runtime/drivers/types.js';

const Runtime = Type.Union(RUNTIME_KINDS.map((k) => Type.Literal(k)));
export const Agent = Strict({
  agentId: Type.String(),
  name: Type.String(),
  runtime: Runtime,
  enabled: Type.Boolean(),
  model: Type.Optional(Type.String()),
  baseUrl: Type.Optional(Type.String()),
  apiKeyConfigured: Type.Boolean(),
  headerNames: Type.Array(Type.String()),
  filesystemPolicy: Strict({ allowedPathCount: Type.Integer({ minimum: 0 }) }),
  session: Strict({ runtimeLive: Type.Boolean(), turnLive: Type.Boolean() }),
});

/**
 * An agent in a list: who it is and whether it runs (agentId for get and for message/task targets); the endpoint,
 * credential and policy fields only in `agent get`.
 */
export const AgentListItem = Type.Pick(Agent, ['agentId', 'name', 'runtime', 'enabled', 'model', 'session'], { additionalProperties: false });

export const agentList = defineAction({
  domain: 'agent',
  action: 'list',
  summary: 'List teammate agents by Agent ID.',
  input: Strict({
    limit: Limit,
    cursor: Cursor,
    filters: Type.Optional(Strict({ runtime: Type.Optional(Runtime), enabled: Type.Optional(Type.Boolean()), query: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Part of the name or id.' })) })),
  }),
  output: Strict({ agents: Type.Array(AgentListItem), hasMore: HasMore, nextCursor: NextCursor }),
  example: { filters: { enabled: true } },
  risk: 'read',
  resultPolicy: 'cursor',
});

export const agentGet = defineAction({
  domain: 'agent',
  action: 'get',
  summary: 'Get one teammate agent.',
  input: Strict({ agentId: Id('Agent id, e.g. agt214.') }),
  output: Strict({ agent: Agent }),
  example: { agentId: 'agt214' },
  risk: 'read',
  resultPolicy: 'narrow',
});

export const AGENT_DESCRIPTORS = [agentList, agentGet] as const;
