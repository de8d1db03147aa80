// Owns the `agent` handlers: served by the daemon's profile index (a daemon-local service), not by the server.
import { binderFor, pageFields, type BoundAction } from '../../wire/exec/action.js';
import type { Static } from '@sinclair/typebox';
import type { AgentDirectory, AgentView } from './contract.js';
import { AgentListItem, agentGet, agentList } from './descriptors.js';

export type { AgentDirectory };
const bind = binderFor<AgentDirectory>();

const list = bind(agentList, async (input, ctx) => {
  const req: Parameters<AgentDirectory['page']>[0] = {};
  if (input.limit !== undefined) req.limit = input.limit;
  if (input.cursor !== undefined) req.cursor = input.cursor;
  if (input.filters !== undefined) req.filters = input.filters;
  const page = ctx.api.page(req);
  return { data: { agents: page.agents.map(listItem), ...pageFields(page) } };
});

/** Exactly AgentListItem: get's fields minus baseUrl, apiKeyConfigured, headerNames and filesystemPolicy. */
function listItem(a: AgentView): Static<typeof AgentListItem> {
  const v: Static<typeof AgentListItem> = { agentId: a.agentId, name: a.name, runtime: a.runtime, enabled: a.enabled, session: a.session };
  if (a.model !== undefined) v.model = a.model;
  return v;
}

const get = bind(agentGet, async (input, ctx) => ({ data: { agent: ctx.api.get(input.agentId) } }));

export const agentActions = (): BoundAction[] => [list, get] as unknown as BoundAction[];
