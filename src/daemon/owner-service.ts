// Owns what the owner CLI asks of the daemon: agents, messages as the Human owner, runtimes, status. Product calls go through ServerApi.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { statSync } from 'node:fs';
import type { ServerApi } from '../server-client/api.js';
import { AppError } from '../shared/errors.js';
import type { RunEvent, RunRecord, RuntimeLauncher } from '../runtime/launcher.js';
import type { TurnJournal, TurnRow } from '../sessions/journal.js';
import { type AgentProfile, type ProfilePatch, type ProfileStore, type RuntimeKindName } from '../home/profiles.js';
import { type AgentIndex, type AgentView } from './agent-index.js';
import type { AgentLifecycle, ReconcileResult } from './agent-lifecycle.js';
import { OwnerChannels } from './owner-channels.js';
import type { MemberDto } from '../domains/member/contract.js';
import { checkNewName } from '../domains/member/name-rule.js';
import { joinCommand, type ServerLinkView } from './join-command.js';
import { assertProfileOutsideHome } from '../home/home-wall.js';
import { assertProviderSettings } from './provider-check.js';

/** What the owner CLI prints about an agent: the safe public projection, plus `id` for scripts. */
export type OwnerAgentView = AgentView & { id: string };
/** The agent configuration fields the owner sets; secrets arrive in the body, never in argv of a runtime. */
export type AgentConfigInput = Pick<ProfilePatch, 'model' | 'baseUrl' | 'apiKey' | 'headers' | 'allowedPaths' | 'sourceIds' | 'enabled' | 'runtime'> & { workdir?: string };

export interface OwnerServiceDeps {
  owner: () => ServerApi;
  profiles: ProfileStore;
  index: AgentIndex;
  lifecycle: AgentLifecycle;
  /** The owning profile: the Human member id every new profile records. */
  ownerId: string;
  launcher: RuntimeLauncher;
  journal: TurnJournal;
  /** Starts following the new agent's turns. */
  onAgentAdded(p: AgentProfile): void;
  status: () => Promise<Record<string, unknown>>;
  stop: () => Promise<void>;
  /** The server this daemon uses: embedded (loopback only) or remote URLs, and the CA file it trusts, if any. */
  link: () => ServerLinkView;
  generalChannel: string;
  /** The AgentTeam home: no workdir or allowed path may reach it. */
  home: string;
}

export class OwnerService {
  /** Channels and DMs as the Human owner, members named by name. */
  readonly channels: OwnerChannels;

  constructor(private readonly deps: OwnerServiceDeps) {
    this.channels = new OwnerChannels(deps.owner);
  }

  status(): Promise<Record<string, unknown>> {
    return this.deps.status();
  }

  stop(): Promise<void> {
    return this.deps.stop();
  }

  /** Input checks before anything is created or stored: provider settings, and the home wall for paths. */
  private checkConfig(c: AgentConfigInput): void {
    assertProviderSettings(c);
    assertProfileOutsideHome(c, this.deps.home);
  }

  private view(id: string): OwnerAgentView {
    return { id, ...this.deps.index.get(id) };
  }

  private found(agent: string): AgentProfile {
    const p = this.deps.profiles.find(agent);
    if (!p) throw new AppError('not_found', `no agent named ${agent}`);
    return p;
  }

  listAgents(): OwnerAgentView[] {
    return this.deps.profiles.list().map((p) => this.view(p.id));
  }

  getAgent(agent: string): OwnerAgentView {
    return this.view(this.found(agent).id);
  }

  /** Updates the configuration; disabling stops the agent's turn feed and live runtimes, enabling follows it again. */
  async updateAgent(agent: string, input: AgentConfigInput & { name?: string }): Promise<OwnerAgentView> {
    const p = this.found(agent);
    if (input.name !== undefined && input.name !== p.name && this.deps.profiles.find(input.name)) throw new AppError('conflict', `an agent named ${input.name} already exists`);
    const patch: ProfilePatch = { ...input };
    if (input.workdir !== undefined) patch.workdir = checkedWorkdir(input.workdir);
    this.checkConfig(patch);
    // The server member is renamed first (its messages show the new name); a refusal there changes nothing here, and a
    // refusal here renames it back.
    const renamed = input.name !== undefined && input.name !== p.name;
    if (renamed) await this.deps.owner().members.renameAgent({ memberId: p.id, name: input.name! });
    let next: AgentProfile;
    try {
      next = this.deps.index.update(p.id, patch);
    } catch (e) {
      if (renamed) await this.deps.owner().members.renameAgent({ memberId: p.id, name: p.name }).catch(() => undefined);
      throw e;
    }
    if (input.enabled !== undefined) await this.deps.lifecycle.setEnabled(next);
    return this.view(p.id);
  }

  /** Removes the agent: its live runtimes are stopped (each exit revokes its authorization), then its server member, then the profile and its local state. */
  async removeAgent(agent: string): Promise<{ removed: string }> {
    const p = this.found(agent);
    await this.deps.lifecycle.quiesce(p.id);
    try {
      // The server member goes too (its credential stops everywhere); one already gone is fine.
      await this.deps.owner().members.remove({ memberId: p.id }, { idempotencyKey: `agent-rm-${randomUUID()}` });
    } catch (e) {
      if (!(e instanceof AppError && e.code === 'not_found')) {
        await this.deps.lifecycle.setEnabled(p); // nothing removed: the agent follows its turns again if it was enabled
        throw e;
      }
    }
    await this.deps.lifecycle.remove(p.id);
    return { removed: p.id };
  }

  /** Re-reads the profiles folder and removes profiles whose server member is gone. */
  reloadAgents(): Promise<ReconcileResult> {
    return this.deps.lifecycle.reload();
  }

  /** Creates the agent member on the server, joins it to #general, and stores its profile and server credential locally. */
  async addAgent(input: { name: string; runtime?: RuntimeKindName; workdir?: string; command?: string[] } & AgentConfigInput): Promise<OwnerAgentView> {
    if (this.deps.profiles.find(input.name)) throw new AppError('conflict', `an agent named ${input.name} already exists`);
    const workdir = input.workdir === undefined ? undefined : checkedWorkdir(input.workdir);
    this.checkConfig({ ...input, workdir });
    const api = this.deps.owner();
    // Keyed, so a failover retry to another server process replays instead of creating a second agent; the receipt
    // holding the agent's credential is sealed with this member's own credential (server idempotency.ts).
    const created = await api.members.createAgent({ name: input.name }, { idempotencyKey: `agent-add-${randomUUID()}` });
    await api.channels.addMember({ channelId: this.deps.generalChannel, memberId: created.agent.id });
    const profile: AgentProfile = { id: created.agent.id, name: created.agent.name, runtime: input.runtime ?? 'command', createdAt: created.agent.createdAt, credential: created.credential };
    if (input.model !== undefined) profile.model = input.model;
    if (workdir !== undefined) profile.workdir = workdir;
    if (input.command !== undefined && input.command.length > 0) profile.command = input.command;
    profile.owner = this.deps.ownerId;
    for (const k of ['baseUrl', 'apiKey', 'headers', 'allowedPaths', 'sourceIds', 'enabled'] as const) if (input[k] !== undefined) (profile as unknown as Record<string, unknown>)[k] = input[k];
    this.deps.index.add(profile);
    this.deps.onAgentAdded(profile);
    return this.view(profile.id);
  }

  /**
   * Owner or admin (the server decides): a one-time invite code for a new Human member, with what the other machine
   * needs to join: every server URL this daemon uses and, when it trusts a private CA, that CA file (to be copied).
   */
  async invite(input: { name: string; role?: 'member' | 'admin'; expires?: string }) {
    checkNewName(input.name); // a person's name follows the server's one rule (checked here first, and there)
    const inv = await this.deps.owner().members.invite(input, { idempotencyKey: `invite-${randomUUID()}` });
    return { ...inv, ...joinCommand(this.deps.link(), inv.code) };
  }

  listInvites(limit?: number, cursor?: string) {
    return this.deps.owner().members.invites({ limit, cursor });
  }

  revokeInvite(inviteId: string) {
    return this.deps.owner().members.revokeInvite({ inviteId }, { idempotencyKey: `invite-revoke-${randomUUID()}` });
  }

  listMembers() {
    return this.deps.owner().members.list();
  }

  /** A current member by id or unique name. */
  private async member(who: string): Promise<MemberDto> {
    const all = await this.deps.owner().members.list();
    const byId = all.find((m) => m.id === who);
    const named = all.filter((m) => m.name === who);
    if (!byId && named.length > 1) throw new AppError('conflict', `${named.length} members are named ${who}; give the member id (agentteam member ls)`);
    const m = byId ?? named[0];
    if (!m) throw new AppError('not_found', `no member ${who}`);
    return m;
  }

  /** Owner or admin (the server decides): removes a member by id or unique name; a Human's agents go with it. */
  async removeMember(who: string) {
    const m = await this.member(who);
    return this.deps.owner().members.remove({ memberId: m.id }, { idempotencyKey: `member-rm-${randomUUID()}` });
  }

  /** Owner only (the server decides): a person's role by id or unique name. */
  async setRole(who: string, role: 'admin' | 'member') {
    const m = await this.member(who);
    return this.deps.owner().members.setRole({ memberId: m.id, role }, { idempotencyKey: `member-role-${randomUUID()}` });
  }

  /** Recent turns of one agent, newest first, with outcome and duration. */
  listTurns(agent: string, limit: number): { turns: Array<Omit<TurnRow, 'content'> & { durationMs: number | null }> } {
    const p = this.deps.profiles.find(agent);
    if (!p) throw new AppError('not_found', `no agent named ${agent}`);
    return {
      turns: this.deps.journal.recent(p.id, limit).map(({ content: _c, ...t }) => ({ ...t, durationMs: t.startedAt !== null && t.finishedAt !== null ? t.finishedAt - t.startedAt : null })),
    };
  }

  postMessage(input: { target: string; content: string }) {
    return this.deps.owner().messages.send(input);
  }

  /** The server's knowledge routes as the Human owner (sources, documents, sync marks). */
  knowledge() {
    return this.deps.owner().knowledge;
  }

  extensions() {
    return this.deps.owner().extensions;
  }

  listMessages(target: string, limit?: number, cursor?: string) {
    return this.deps.owner().messages.list({ target, limit, cursor });
  }

  listRuntimes(): RunRecord[] {
    return this.deps.launcher.list();
  }

  stopRuntime(runId: string): Promise<RunRecord> {
    return this.deps.launcher.stop(runId);
  }

  /**
   * Launches a runtime. Detached: answers {run} at once. Foreground: streams NDJSON events (started, stdout, stderr, exit);
   * if the client goes away before the exit, the runtime is stopped.
   */
  async startRuntime(input: { agent: string; runtime?: RuntimeKindName; workdir?: string; command: string[]; detach?: boolean }, res: ServerResponse): Promise<void> {
    const agent = this.deps.profiles.find(input.agent);
    if (!agent) throw new AppError('not_found', `no agent named ${input.agent}; add it with: agentteam agent add --name ${input.agent}`);
    if (agent.enabled === false) throw new AppError('conflict', `agent ${agent.name} is disabled; enable it with: agentteam agent enable ${agent.name}`);
    const workdir = checkedWorkdir(input.workdir ?? process.cwd());
    assertProfileOutsideHome({ workdir, allowedPaths: agent.allowedPaths }, this.deps.home);
    const runtime = input.runtime ?? agent.runtime;
    if (input.detach) {
      const run = await this.deps.launcher.launch({ agent, runtime, workdir, command: input.command });
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, data: run }));
      return;
    }
    let exited = false;
    let runId: string | undefined;
    const sink = (e: RunEvent) => {
      if (e.type === 'exit') exited = true;
      if (!res.headersSent) res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
      res.write(JSON.stringify(e) + '\n');
      if (e.type === 'exit') res.end();
    };
    const run = await this.deps.launcher.launch({ agent, runtime, workdir, command: input.command }, sink);
    runId = run.runId;
    res.once('close', () => {
      if (!exited && runId) {
        this.deps.launcher.detach(runId, sink);
        void this.deps.launcher.stop(runId).catch(() => undefined);
      }
    });
  }
}

function checkedWorkdir(dir: string): string {
  const workdir = resolve(dir);
  let st;
  try {
    st = statSync(workdir);
  } catch {
    st = undefined;
  }
  if (!st?.isDirectory()) throw new AppError('invalid_input', 'workdir is not a directory');
  return workdir;
}
