// Owns the `agent` domain contract: the safe public projection of a local agent and the directory its handlers read (the daemon's profile index implements it).
import type { RuntimeKind } from '../../runtime/drivers/types.js';

export interface AgentFilters {
  runtime?: RuntimeKind;
  enabled?: boolean;
  query?: string;
}

/** What is live for one agent right now; the launcher and the turn engine know. */
export interface LiveState {
  runtimeLive: boolean;
  turnLive: boolean;
}

/** The safe public projection: no secret, no source id, no raw path (spec §Bounded non-Workflow collection reads). */
export interface AgentView {
  agentId: string;
  name: string;
  runtime: RuntimeKind;
  enabled: boolean;
  model?: string;
  baseUrl?: string;
  apiKeyConfigured: boolean;
  headerNames: string[];
  filesystemPolicy: { allowedPathCount: number };
  session: LiveState;
}

/** The narrow daemon-local service the `agent` handlers receive as `ctx.api`. */
export interface AgentDirectory {
  page(input: { limit?: number; cursor?: string; filters?: AgentFilters }): { agents: AgentView[]; hasMore: boolean; nextCursor?: string };
  get(agentId: string): AgentView;
}
