// Owns the `agent` domain contract: the safe public projection of a local agent (TypeBox, the Exec output too), its list
// filters, and the directory its handlers read (the daemon's profile index implements it).
import { Type, type Static } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { RUNTIME_KINDS } from '../../runtime/drivers/types.js';

export const Runtime = Type.Union(RUNTIME_KINDS.map((k) => Type.Literal(k)));

/** What is live for one agent right now; the launcher and the turn engine know. */
export const LiveState = Strict({ runtimeLive: Type.Boolean(), turnLive: Type.Boolean() });
export type LiveState = Static<typeof LiveState>;

/** The safe public projection: no secret, no source id, no raw path (spec §Bounded non-Workflow collection reads). */
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
  session: LiveState,
});
export type AgentView = Static<typeof Agent>;

/**
 * An agent in a list: who it is and whether it runs (agentId for get and for message/task targets); the endpoint,
 * credential and policy fields only in `agent get`.
 */
export const AgentListItem = Type.Pick(Agent, ['agentId', 'name', 'runtime', 'enabled', 'model', 'session'], { additionalProperties: false });
export type AgentListItem = Static<typeof AgentListItem>;

export const AGENT_FILTERS = {
  runtime: Type.Optional(Runtime),
  enabled: Type.Optional(Type.Boolean()),
  query: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Part of the name or id.' })),
};
const AgentFilters = Type.Object(AGENT_FILTERS);
export type AgentFilters = Static<typeof AgentFilters>;

/** The narrow daemon-local service the `agent` handlers receive as `ctx.api`. */
export interface AgentDirectory {
  page(input: { limit?: number; cursor?: string; filters?: AgentFilters }): { agents: AgentView[]; hasMore: boolean; nextCursor?: string };
  get(agentId: string): AgentView;
}
