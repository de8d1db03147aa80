// Owns what the owner CLI asks of the daemon: agents, messages as the Human owner, runtimes, status. Product calls go through ServerApi.
import type { ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { statSync } from 'node:fs';
import type { ServerApi } from '../server-client/api.js';
import { AppError } from '../shared/errors.js';
import type { RunEvent, RunRecord, RuntimeLauncher } from '../runtime/launcher.js';
import type { TurnJournal, TurnRow } from '../sessions/journal.js';
import { type AgentProfile, type ProfileStore, type PublicProfile, type RuntimeKindName, publicProfile } from './profiles.js';

export interface OwnerServiceDeps {
  owner: () => ServerApi;
  profiles: ProfileStore;
  launcher: RuntimeLauncher;
  journal: TurnJournal;
  /** Starts following the new agent's turns. */
  onAgentAdded(p: AgentProfile): void;
  status: () => Promise<Record<string, unknown>>;
  stop: () => Promise<void>;
  generalChannel: string;
}

export class OwnerService {
  constructor(private readonly deps: OwnerServiceDeps) {}

  status(): Promise<Record<string, unknown>> {
    return this.deps.status();
  }

  stop(): Promise<void> {
    return this.deps.stop();
  }

  listAgents(): PublicProfile[] {
    return this.deps.profiles.list().map(publicProfile);
  }

  /** Creates the agent member on the server, joins it to #general, and stores its profile and server credential locally. */
  async addAgent(input: { name: string; runtime?: RuntimeKindName; model?: string; workdir?: string; command?: string[] }): Promise<PublicProfile> {
    if (this.deps.profiles.find(input.name)) throw new AppError('conflict', `an agent named ${input.name} already exists`);
    const workdir = input.workdir === undefined ? undefined : checkedWorkdir(input.workdir);
    const api = this.deps.owner();
    const created = await api.members.createAgent({ name: input.name });
    await api.channels.addMember(this.deps.generalChannel, created.agent.id);
    const profile: AgentProfile = { id: created.agent.id, name: created.agent.name, runtime: input.runtime ?? 'command', createdAt: created.agent.createdAt, credential: created.credential };
    if (input.model !== undefined) profile.model = input.model;
    if (workdir !== undefined) profile.workdir = workdir;
    if (input.command !== undefined && input.command.length > 0) profile.command = input.command;
    this.deps.profiles.save(profile);
    this.deps.onAgentAdded(profile);
    return publicProfile(profile);
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
    const workdir = checkedWorkdir(input.workdir ?? process.cwd());
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
