// Owns the `agent` Exec actions, one declaration each: served by the daemon's profile index (a daemon-local service
// handed in as `ctx.api`), not by the server.
import { Id, PageInput, PageOf, Strict } from '../../catalog/schemas.js';
import { pageFields, type ActionContext } from '../../wire/exec/action.js';
import { execAction, type DeclaredAction } from '../../wire/exec/declare.js';
import { AGENT_FILTERS, Agent, AgentListItem, type AgentDirectory, type AgentView } from './contract.js';

type Local = ActionContext<AgentDirectory>;

/** Exactly AgentListItem: get's fields minus baseUrl, apiKeyConfigured, headerNames and filesystemPolicy. */
function listItem(a: AgentView): AgentListItem {
  const v: AgentListItem = { agentId: a.agentId, name: a.name, runtime: a.runtime, enabled: a.enabled, session: a.session };
  if (a.model !== undefined) v.model = a.model;
  return v;
}

const list = execAction({
  domain: 'agent',
  action: 'list',
  summary: 'List teammate agents by Agent ID.',
  input: PageInput(AGENT_FILTERS),
  output: PageOf('agents', AgentListItem),
  example: { filters: { enabled: true } },
  risk: 'read',
  resultPolicy: 'cursor',
  overBudget: { hint: 'Request a smaller page with the same filters and cursor.', next: 'agentteam exec agent list' },
  handle: async ({ limit, cursor, filters }, ctx: Local) => {
    const page = ctx.api.page({ limit, cursor, filters });
    return { data: { agents: page.agents.map(listItem), ...pageFields(page) } };
  },
});

const get = execAction({
  domain: 'agent',
  action: 'get',
  summary: 'Get one teammate agent.',
  input: Strict({ agentId: Id('Agent id, e.g. agt214.') }),
  output: Strict({ agent: Agent }),
  example: { agentId: 'agt214' },
  risk: 'read',
  resultPolicy: 'narrow',
  overBudget: { hint: 'One agent is always small; check the agentId.', next: 'agentteam exec agent get' },
  handle: async (input, ctx: Local) => ({ data: { agent: ctx.api.get(input.agentId) } }),
});

/** The agent actions in help order. */
export const AGENT_ACTIONS: readonly DeclaredAction<any, any>[] = [list, get];
