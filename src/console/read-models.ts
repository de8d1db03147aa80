// Owns what the console shows: narrow projections of conversations, runtimes, credentials/admission, turns and request metrics (never a secret).
import type { AuthorizationStoreView } from '../authz/store.js';
import type { RunRecord } from '../runtime/launcher.js';
import type { ServerApi } from '../server-client/api.js';
import type { MessageDto } from '../domains/message/contract.js';
import type { TurnRow } from '../sessions/journal.js';
import type { Clock } from '../shared/clock.js';
import type { DenialCounts } from './denials.js';
import type { RouteMetrics } from './metrics.js';

export interface ConsoleReadDeps {
  clock: Clock;
  owner: () => ServerApi;
  agents: () => Array<{ id: string; name: string; runtime: string; enabled: boolean }>;
  runtimes: () => RunRecord[];
  authorizations: () => AuthorizationStoreView;
  turns: (limit: number) => Array<Omit<TurnRow, 'content'>>;
  denials: DenialCounts;
  metrics: RouteMetrics;
}

export interface ConsoleMessage {
  id: string;
  target: string;
  author: { name: string; kind: string };
  content: string;
  replyTo: string | null;
  createdAt: string;
  notice?: true;
  files?: string[];
}

/** Turns shown: the newest across agents. */
const TURNS = 100;

/** A message as the page shows it: author name and kind only, attachment names only. */
export function projectMessage(m: MessageDto): ConsoleMessage {
  return {
    id: m.id,
    target: m.target,
    author: { name: m.author.name, kind: m.author.kind },
    content: m.content,
    replyTo: m.replyTo,
    createdAt: m.createdAt,
    ...(m.kind === 'notice' ? { notice: true as const } : {}),
    ...(m.attachments.length ? { files: m.attachments.map((a) => a.name) } : {}),
  };
}

export class ConsoleReads {
  constructor(private readonly deps: ConsoleReadDeps) {}

  /** Channels from the server; DMs and threads the agents' turns came from (the server lists no DMs for a member). */
  async conversations(): Promise<{ channels: Array<{ target: string; name: string }>; others: string[]; agents: Array<{ id: string; name: string; runtime: string; enabled: boolean }> }> {
    const channels = (await this.deps.owner().channels.list()).map((c) => ({ target: `channel:${c.id}`, name: c.name }));
    const known = new Set(channels.map((c) => c.target));
    const others = [...new Set(this.deps.turns(500).map((t) => t.target))].filter((t) => !known.has(t)).sort();
    return { channels, others, agents: this.deps.agents().map(({ id, name, runtime, enabled }) => ({ id, name, runtime, enabled })) };
  }

  async messages(target: string, limit: number, cursor?: string): Promise<{ messages: ConsoleMessage[]; nextCursor?: string }> {
    const page = await this.deps.owner().messages.list({ target, limit, ...(cursor ? { cursor } : {}) });
    return { messages: page.messages.map(projectMessage), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  }

  /** Runtimes (live first, then recently exited), each with its agent, kind, uptime and current turn; no workdir or pid. */
  runtimes(turns = this.deps.turns(TURNS)): Array<{ runId: string; agentName: string; runtime: string; status: string; startedAt: string; uptimeMs: number | null; exitCode: number | null; signal: string | null; turn?: { target: string; from: string; sinceMs: number } }> {
    const now = this.deps.clock.now();
    const running = new Map(turns.filter((t) => t.status === 'running' && t.runId).map((t) => [t.runId!, t]));
    return this.deps.runtimes().map((r) => {
      const t = running.get(r.runId);
      return {
        runId: r.runId,
        agentName: r.agentName,
        runtime: r.runtime,
        status: r.status,
        startedAt: r.startedAt,
        uptimeMs: r.status === 'running' ? Math.max(0, now - Date.parse(r.startedAt)) : null,
        exitCode: r.exitCode,
        signal: r.signal,
        ...(t ? { turn: { target: t.target, from: t.authorName, sinceMs: Math.max(0, now - (t.startedAt ?? t.receivedAt)) } } : {}),
      };
    });
  }

  /** Authorizations (generation ids, expiries, in-flight), the admission gauges, cleanup debt and recent denial classes. */
  credentials() {
    const v = this.deps.authorizations();
    const names = new Map(this.deps.agents().map((a) => [a.id, a.name]));
    return {
      now: this.deps.clock.now(),
      authorizations: v.authorizations.map((a) => ({ ...a, agentName: names.get(a.agentId) ?? a.agentId })),
      gauges: {
        perAuthorizationLimit: v.limits.perAuthorization,
        global: { inFlight: v.inFlight, limit: v.limits.global },
        dispatcher: { authorizations: v.records, limit: v.limits.dispatcher },
      },
      denials: this.deps.denials.recent(),
    };
  }

  /** Recent turns across agents: which agent works on what, its outcome and duration. */
  turns(rows = this.deps.turns(TURNS)) {
    const names = new Map(this.deps.agents().map((a) => [a.id, a.name]));
    const now = this.deps.clock.now();
    return rows.map((t) => ({
      turnId: t.turnId,
      agentName: names.get(t.agentId) ?? t.agentId,
      target: t.target,
      messageId: t.messageId,
      from: t.authorName,
      status: t.status,
      outcome: t.outcome,
      detail: t.detail,
      receivedAt: t.receivedAt,
      durationMs: t.startedAt === null ? null : (t.finishedAt ?? now) - t.startedAt,
    }));
  }

  metrics() {
    return this.deps.metrics.snapshot();
  }

  /** Everything the page refreshes live, in one event. */
  state() {
    const rows = this.deps.turns(TURNS);
    return { runtimes: this.runtimes(rows), credentials: this.credentials(), turns: this.turns(rows), metrics: this.metrics() };
  }
}
