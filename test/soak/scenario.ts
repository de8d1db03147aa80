// Owns the soak's world and its scripted Human: a real daemon (bin/agentteam) on loopback, `command` agents with
// scripted behaviours, channels, threads, group DMs, tasks and a workflow, a backlog, and daemon kill -9 + restart.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ServerClient } from '../../src/server-client/client.js';
import type { ServerApi } from '../../src/server-client/api.js';
import { processAlive } from '../../src/shared/proc.js';
import { TestDaemon, cliJson } from '../harness.js';
import { serverClient } from '../../src/domains/registry.js';

export const AGENT_JS = resolve(import.meta.dirname, 'agent.mjs');
export type Behaviour = 'answer' | 'mention' | 'fail' | 'hang' | 'crash' | 'quiet';

export interface Agent { id: string; name: string; behaviour: Behaviour; log: string }
export interface Target { target: string; kind: 'channel' | 'dm' | 'thread' | 'task'; members: Set<string>; assignee?: string }

export interface SoakOptions {
  agents: number; loops: number; seconds: number; kills: number; backlog: number; turnTimeout: number; loopBound: number; maxTurns: number; seed: number;
  /** The daemon's per-agent bound on queued turns (`--max-queued`, where the daemon has it); unset: its default. */
  maxQueued?: number;
  dir: string;
}

/** A small seeded PRNG (mulberry32): the Human's script is the same on every run with the same seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROLES: Behaviour[] = ['answer', 'answer', 'mention', 'answer', 'fail', 'hang', 'crash', 'mention', 'answer', 'fail'];

export class World {
  readonly d: TestDaemon;
  readonly agents: Agent[] = [];
  readonly targets = new Map<string, Target>();
  /** Workflow step message id → assignee id. */
  readonly steps = new Map<string, string>();
  /** Threads the Human started (thread:<channel>/<root>). */
  readonly threads: string[] = [];
  ownerId = '';
  backlogAgent?: Agent;
  victim?: Agent;
  victimMessage?: string;
  /** When the first backlog message was posted (ms). */
  backlogFrom?: number;
  kills = 0;
  private client?: ServerClient;
  api!: ServerApi;

  constructor(readonly o: SoakOptions) {
    this.d = new TestDaemon(undefined);
  }

  daemonArgs(): string[] {
    const q = this.o.maxQueued ? ['--max-queued', String(this.o.maxQueued)] : [];
    return ['--turn-timeout', String(this.o.turnTimeout), '--loop-bound', String(this.o.loopBound), '--max-turns', String(this.o.maxTurns), ...q];
  }

  async start(): Promise<void> {
    const r = await this.d.run(['init']);
    if (r.code !== 0) throw new Error(`init failed: ${r.stderr}`);
    // init starts the daemon with defaults; the soak restarts it with its own turn flags.
    this.d.pid = cliJson(r).pid;
    await this.d.stop();
    await this.startDaemon();
    this.ownerId = JSON.parse(readFileSync(join(this.d.home, 'owner.json'), 'utf8')).memberId ?? '';
  }

  /** Starts the daemon on the same home and reconnects the owner's API (the embedded server's port may change). */
  async startDaemon(): Promise<void> {
    const r = await this.d.run(['daemon', 'start', ...this.daemonArgs()]);
    if (r.code !== 0) throw new Error(`daemon start failed: ${r.stderr}`);
    this.d.pid = cliJson(r).pid;
    const status = cliJson(await this.d.run(['daemon', 'status']));
    const cred = JSON.parse(readFileSync(join(this.d.home, 'owner.json'), 'utf8')).credential as string;
    this.client?.close();
    this.client = serverClient({ baseUrl: status.server.url });
    this.api = this.client.as(cred);
  }

  /** kill -9 of the daemon while turns run, then a restart on the same home. */
  async crashDaemon(): Promise<void> {
    process.kill(this.d.pid, 'SIGKILL');
    for (let i = 0; i < 100 && processAlive(this.d.pid); i++) await new Promise((r) => setTimeout(r, 50));
    this.kills++;
    await this.startDaemon();
  }

  async addAgent(name: string, behaviour: Behaviour, arg = ''): Promise<Agent> {
    const log = join(this.o.dir, `${name}.log`);
    // quiet (the backlog's work) is a shell one-liner writing the same log line: thousands of turns in minutes, not hours.
    const cmd = behaviour === 'quiet' ? ['sh', '-c', `cat >/dev/null; printf '{"ev":"start","id":"%s","target":"%s","pid":%d,"t":%s}\\n' "$AGENTTEAM_TURN_MESSAGE_ID" "$AGENTTEAM_TURN_TARGET" $$ "$(date +%s%3N)" >> '${log}'`] : [process.execPath, AGENT_JS, log, behaviour, ...(arg ? [arg] : [])];
    const r = await this.d.run(['agent', 'add', '--name', name, '--runtime', 'command', '--', ...cmd]);
    if (r.code !== 0) throw new Error(`agent add failed: ${r.stderr}`);
    const a = { id: cliJson(r).id as string, name, behaviour, log };
    this.agents.push(a);
    return a;
  }

  /** The cast: N agents cycling through the behaviours; with 12 or more, the last two are a backlog agent and its victim. */
  async cast(): Promise<void> {
    const withBacklog = this.o.agents >= 12 && this.o.backlog > 0;
    const plain = withBacklog ? this.o.agents - 2 : this.o.agents;
    // The backlog agent is added first: it sorts before the victim, as in issue 26's starvation report.
    if (withBacklog) this.backlogAgent = await this.addAgent('bak', 'quiet');
    for (let i = 0; i < plain; i++) {
      const b = this.o.agents === 1 ? 'answer' : ROLES[i % ROLES.length]!;
      const name = `${b.slice(0, 3)}${i}`;
      // A mention agent hands over to the previous agent (an answerer, or another mention agent: a loop).
      await this.addAgent(name, b, b === 'mention' ? this.agents[this.agents.length - 1]!.name : '');
    }
    if (withBacklog) this.victim = await this.addAgent('vic', 'answer');
  }

  private add(t: Target): Target {
    this.targets.set(t.target, t);
    return t;
  }

  /** Three channels beyond #general, a backlog channel, group DMs with the owner, one-to-one DMs, tasks, a workflow. */
  async furnish(): Promise<void> {
    const all = this.agents.filter((a) => a !== this.backlogAgent && a !== this.victim);
    this.add({ target: 'channel:general', kind: 'channel', members: new Set([this.ownerId, ...this.agents.map((a) => a.id)]) });
    for (let c = 0; c < 3 && all.length > 1; c++) {
      const members = all.filter((_, i) => i % 3 !== c);
      await this.api.channels.create({ id: `soak${c}` });
      for (const a of members) await this.api.channels.addMember({ channelId: `soak${c}`, memberId: a.id });
      this.add({ target: `channel:soak${c}`, kind: 'channel', members: new Set([this.ownerId, ...members.map((a) => a.id)]) });
    }
    if (this.backlogAgent && this.victim) {
      await this.api.channels.create({ id: 'backlog' });
      for (const a of [this.backlogAgent, this.victim]) await this.api.channels.addMember({ channelId: 'backlog', memberId: a.id });
      this.add({ target: 'channel:backlog', kind: 'channel', members: new Set([this.ownerId, this.backlogAgent.id, this.victim.id]) });
    }
    for (let g = 0; g + 1 < all.length && g < 6; g += 3) {
      const ids = all.slice(g, g + 3).map((a) => a.id);
      const dm = await this.api.channels.openDm({ memberIds: ids });
      this.add({ target: `dm:${dm.id}`, kind: 'dm', members: new Set(dm.memberIds) });
    }
    for (const a of all.slice(0, 3)) {
      const dm = await this.api.channels.openDm({ memberIds: [a.id] });
      this.add({ target: `dm:${dm.id}`, kind: 'dm', members: new Set(dm.memberIds) });
    }
    for (const a of all.slice(0, 2)) {
      const task = await this.api.tasks.create({ title: `soak work for ${a.name}`, assigneeId: a.id });
      this.add({ target: `task:${task.id}`, kind: 'task', members: new Set(), assignee: a.id });
    }
  }

  /** Posts as the Human owner. */
  async post(target: string, content: string): Promise<string> {
    const t = this.targets.get(target)!;
    if (t.kind === 'task') return (await this.api.tasks.comment({ taskId: target.slice(5), body: content })).id;
    return (await this.api.messages.send({ target, content })).id;
  }

  /** The backlog: `n` mentions of the backlog agent (posted concurrently, 16 at a time), then one mention of the victim. */
  async backlog(n: number): Promise<void> {
    if (!this.backlogAgent || !this.victim) return;
    this.backlogFrom = Date.now();
    for (let i = 0; i < n; i += 16) {
      await Promise.all(Array.from({ length: Math.min(16, n - i) }, (_, k) => this.post('channel:backlog', `@bak job ${i + k}`)));
    }
    this.victimMessage = await this.post('channel:backlog', '@vic are you there?');
  }

  /** A one-step workflow whose step goes to `assignee`, started by the Human in `target`. */
  async workflow(assignee: Agent, target: string): Promise<void> {
    const plan = await this.api.workflows.createPlan({ name: `Soak ${assignee.name}`, steps: [{ title: 'Check in', assignee: assignee.id }] });
    await this.api.workflows.publishPlan({ planId: plan.id, revision: plan.revision });
    const run = await this.api.workflows.startRun({ planId: plan.id, target });
    for (const s of run.steps) if (s.messageId) this.steps.set(s.messageId, assignee.id);
  }

  close(): void {
    this.client?.close();
  }
}
