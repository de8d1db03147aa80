// Owns fixtures for agentteam tool tests: the real AgentTeam Server on temp SQLite, an agent in #general, a ToolContext.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TokenInfo } from '../../authz/types.js';
import type { ServerApi } from '../../server-client/api.js';
import { startTestServer, type TestServer } from '../../domains/test-server.js';
import type { McpToolResult, ToolContext } from '../../wire/mcp/handler.js';
import { AttachmentBudget } from './attachment-budget.js';
import type { AgentteamDeps } from './handler.js';

export interface ToolsFixture {
  srv: TestServer;
  agentId: string;
  agentCredential: string;
  agent: ServerApi;
  workdir: string;
  info: TokenInfo;
  ctx(): ToolContext;
  stop(): Promise<void>;
}

export function tokenInfo(serverId: string, agentId: string, workdir: string, runtimeKind = 'claude'): TokenInfo {
  return {
    scope: 'mcp',
    generationId: 'cred_test',
    expiresAt: Number.MAX_SAFE_INTEGER,
    authorization: { id: 'rta_test', serverId, agentId, sessionId: 'sess', runId: 'run', workdir, processGeneration: 1, runtimeKind, catalog: { version: 'v1', actions: new Map() } },
  };
}

export async function startToolsFixture(): Promise<ToolsFixture> {
  const srv = await startTestServer();
  const created = await srv.owner.members.createAgent({ name: 'Bot' });
  await srv.owner.channels.addMember({ channelId: 'general', memberId: created.agent.id });
  const agent = srv.client.as(created.credential);
  const workdir = mkdtempSync(join(tmpdir(), 'tools-work-'));
  const info = tokenInfo(srv.server.serverId, created.agent.id, workdir);
  return {
    srv,
    agentId: created.agent.id,
    agentCredential: created.credential,
    agent,
    workdir,
    info,
    ctx: () => ({ info, signal: new AbortController().signal, api: agent }),
    stop: () => srv.stop(),
  };
}

/** structuredContent of a result, asserting content[0] mirrors it exactly. */
export function structured(r: McpToolResult): Record<string, any> {
  if (JSON.stringify(r.structuredContent) !== r.content[0]?.text) throw new Error('content[0] does not mirror structuredContent');
  return r.structuredContent as Record<string, any>;
}

/** Handler deps for tests: a fresh temp folder as the AgentTeam home (never attachable) and a default budget. */
export function testToolDeps(home = mkdtempSync(join(tmpdir(), 'tools-home-')), budget = new AttachmentBudget()): AgentteamDeps {
  return { attachments: { home, budget } };
}
