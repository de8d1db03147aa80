// Owns the token report's figures: per session, agent, day and in total, what went to AgentTeam's tool surface and results, the largest results, suggestions.
import { addCost, addUsage, costUSD, totalOf, zeroCost, zeroUsage, type Cost, type LargeResult, type SessionAccount, type ToolStat, type Usage } from './collector.js';
import { PRICES } from './pricing.js';
import type { DaemonSession } from './sources.js';
import type { RuntimeSurface, Surface } from './surface.js';

/** The per-result budget (64 KiB serialized, README "Inside a runtime") in o200k tokens at ~4 bytes a token. */
export const RESULT_BUDGET_TOKENS = 16_384;

export interface ToolRow extends ToolStat {
  tool: string;
}

export interface SessionReport {
  runtime: string;
  sessionId: string;
  agent: string | null;
  agentId: string | null;
  target: string | null;
  model: string | null;
  firstAt: string | null;
  lastAt: string | null;
  requests: number;
  turns: number;
  usage: Usage & { total: number };
  /** USD by ccusage's rules (pricing.ts); null when a request's model has no price. */
  costUSD: number | null;
  /** AgentTeam's instructions and tool definitions in front of the model on each request, and over the session. */
  surface: { perRequest: number; inContext: number; shareOfInput: number; seenInTranscript: Record<string, number> };
  results: { tokens: number; calls: number };
  tools: ToolRow[];
  largest: LargeResult[];
}

export interface Report {
  tokenizer: string;
  /** `unreadable`: up to 20 files that could not be read (path and reason), left out of the figures. */
  sources: { files: number; bytes: number; skippedLines: number; unreadable?: string[] };
  surface: { dispatcherSummary: number; runtimes: RuntimeSurface[]; help: { count: number; root: number; largest: { command: string; tokens: number }[]; all: Record<string, number> } };
  sessions: SessionReport[];
  total: { sessions: number; requests: number; usage: Usage & { total: number }; costUSD: number | null; surfaceInContext: number; resultTokens: number; tools: ToolRow[] };
  days: { day: string; usage: Usage & { total: number }; costUSD: number | null }[];
  /** Where the prices come from, and the models left unpriced (their requests make a cost null) with their request counts. */
  pricing: { source: string; unpriced: { model: string; requests: number }[] };
  /** Per agent: what AgentTeam's surface cost up front (per request, over its requests) and its tools' results per call. */
  agents: { agent: string; sessions: number; requests: number; usage: Usage & { total: number }; costUSD: number | null; surfaceInContext: number; resultTokens: number; calls: number }[];
  largest: (LargeResult & { sessionId: string; agent: string | null })[];
  suggestions: string[];
  /**
   * The tokenizer against the runtimes' own figures, per runtime: over `steps` request pairs whose only new content was
   * AgentTeam results, `recorded` is the recorded context growth, `o200k` our count of those results; `ratio` recorded/o200k.
   */
  tokenizerCheck: { runtime: string; steps: number; recorded: number; o200k: number; ratio: number | null }[];
  /** Sessions found that AgentTeam did not launch (left out unless --all). */
  otherSessions: number;
}

export interface ReportInput {
  accounts: SessionAccount[];
  daemon: Map<string, DaemonSession>;
  surface: Surface;
  sources: Report['sources'];
  filter: { agent?: string; session?: string; all?: boolean };
}

const withTotal = (u: Usage) => ({ ...u, total: totalOf(u) });
const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * AgentTeam's share of each request, as the transcript shows it where it can: Codex records the stable prompt and its
 * dynamic tools; Claude Code the MCP instructions (beside the stable prompt) and, with tool search, bare tool names.
 */
function perRequest(a: SessionAccount, rs: RuntimeSurface | undefined): number {
  if (!rs) return 0;
  const seen = a.surfaceSeen;
  const tools = seen['dynamic tools'] ?? seen['deferred tool names'] ?? rs.toolsList;
  if (a.runtime === 'codex') return (seen.instructions ?? rs.stable) + tools;
  return rs.stable + (seen.instructions ?? 0) + tools;
}

function toolRows(m: Map<string, ToolStat>): ToolRow[] {
  return [...m].map(([tool, s]) => ({ tool, ...s })).sort((a, b) => b.resultTokens - a.resultTokens || a.tool.localeCompare(b.tool));
}

export function buildReport(inp: ReportInput): Report {
  const { surface } = inp;
  const sessions: SessionReport[] = [];
  let otherSessions = 0;
  const totalUsage = zeroUsage();
  const totalTools = new Map<string, ToolStat>();
  const days = new Map<string, Usage>();
  const totalCost = zeroCost();
  const dayCosts = new Map<string, Cost>();
  const agentCosts = new Map<string, Cost>();
  const unpriced = new Map<string, number>();
  const largest: Report['largest'] = [];
  let requests = 0;
  let inContext = 0;
  let resultTokens = 0;
  const check = new Map<string, { steps: number; recorded: number; o200k: number }>();
  for (const a of inp.accounts) {
    const d = inp.daemon.get(a.sessionId);
    if (!d && !a.agentteam && !inp.filter.all) {
      otherSessions++;
      continue;
    }
    if (a.requests === 0 && a.tools.size === 0) continue;
    const agent = d?.agentName ?? a.agentName ?? null;
    if (inp.filter.agent && agent !== inp.filter.agent && d?.agentId !== inp.filter.agent) continue;
    if (inp.filter.session && !a.sessionId.startsWith(inp.filter.session)) continue;
    const per = perRequest(a, surface.runtimes.find((r) => r.runtime === a.runtime));
    const input = a.usage.input + a.usage.cachedInput + a.usage.cacheWrite;
    const tools = toolRows(a.tools);
    const res = tools.reduce((n, t) => n + t.resultTokens, 0);
    const calls = tools.reduce((n, t) => n + t.calls, 0);
    sessions.push({
      runtime: a.runtime,
      sessionId: a.sessionId,
      agent,
      agentId: d?.agentId ?? null,
      target: d?.target ?? null,
      model: a.model ?? null,
      firstAt: a.firstAt ?? null,
      lastAt: a.lastAt ?? null,
      requests: a.requests,
      turns: a.turns,
      usage: withTotal(a.usage),
      costUSD: costUSD(a.cost),
      surface: { perRequest: per, inContext: per * a.requests, shareOfInput: input > 0 ? round((per * a.requests) / input) : 0, seenInTranscript: { ...a.surfaceSeen } },
      results: { tokens: res, calls },
      tools,
      largest: [...a.largest],
    });
    addUsage(totalUsage, a.usage);
    addCost(totalCost, a.cost);
    addCost(agentCosts.get(agent ?? '(unnamed)') ?? (agentCosts.set(agent ?? '(unnamed)', zeroCost()), agentCosts.get(agent ?? '(unnamed)')!), a.cost);
    for (const [day, c] of a.dayCosts) addCost(dayCosts.get(day) ?? (dayCosts.set(day, zeroCost()), dayCosts.get(day)!), c);
    for (const [model, n] of a.unpriced) unpriced.set(model, (unpriced.get(model) ?? 0) + n);
    const c = check.get(a.runtime) ?? { steps: 0, recorded: 0, o200k: 0 };
    c.steps += a.calibration.steps;
    c.recorded += a.calibration.recorded;
    c.o200k += a.calibration.o200k;
    check.set(a.runtime, c);
    requests += a.requests;
    inContext += per * a.requests;
    resultTokens += res;
    for (const t of tools) {
      const s = totalTools.get(t.tool) ?? { calls: 0, results: 0, resultTokens: 0, maxResultTokens: 0, errors: 0 };
      s.calls += t.calls;
      s.results += t.results;
      s.resultTokens += t.resultTokens;
      s.maxResultTokens = Math.max(s.maxResultTokens, t.maxResultTokens);
      s.errors += t.errors;
      totalTools.set(t.tool, s);
    }
    for (const [day, u] of a.days) addUsage(days.get(day) ?? (days.set(day, zeroUsage()), days.get(day)!), u);
    for (const l of a.largest) largest.push({ ...l, sessionId: a.sessionId, agent });
  }
  sessions.sort((x, y) => (x.lastAt ?? '').localeCompare(y.lastAt ?? '') || x.sessionId.localeCompare(y.sessionId));
  largest.sort((x, y) => y.tokens - x.tokens);
  const help = Object.entries(surface.help).sort((x, y) => y[1] - x[1]);
  const report: Report = {
    tokenizer: surface.tokenizer,
    sources: inp.sources,
    surface: {
      dispatcherSummary: surface.dispatcherSummary,
      runtimes: surface.runtimes,
      help: { count: help.length, root: surface.help['exec --help'] ?? 0, largest: help.slice(0, 5).map(([command, tokens]) => ({ command, tokens })), all: surface.help },
    },
    sessions,
    total: { sessions: sessions.length, requests, usage: withTotal(totalUsage), costUSD: costUSD(totalCost), surfaceInContext: inContext, resultTokens, tools: toolRows(totalTools) },
    days: [...days].sort((x, y) => x[0].localeCompare(y[0])).map(([day, u]) => ({ day, usage: withTotal(u), costUSD: costUSD(dayCosts.get(day) ?? zeroCost()) })),
    pricing: { source: `${PRICES.source} Retrieved ${PRICES.retrieved}.`, unpriced: [...unpriced].map(([model, requests]) => ({ model, requests })).sort((x, y) => y.requests - x.requests) },
    agents: byAgent(sessions, agentCosts),
    largest: largest.slice(0, 10),
    suggestions: [],
    tokenizerCheck: [...check].map(([runtime, c]) => ({ runtime, ...c, ratio: c.o200k > 0 ? round(c.recorded / c.o200k) : null })),
    otherSessions,
  };
  report.suggestions = suggest(report);
  return report;
}

function byAgent(sessions: readonly SessionReport[], costs: Map<string, Cost>): Report['agents'] {
  const m = new Map<string, Report['agents'][number]>();
  for (const s of sessions) {
    const key = s.agent ?? '(unnamed)';
    const a = m.get(key) ?? { agent: key, sessions: 0, requests: 0, usage: { ...zeroUsage(), total: 0 }, costUSD: costUSD(costs.get(key) ?? zeroCost()), surfaceInContext: 0, resultTokens: 0, calls: 0 };
    a.sessions++;
    a.requests += s.requests;
    addUsage(a.usage, s.usage);
    a.usage.total += s.usage.total;
    a.surfaceInContext += s.surface.inContext;
    a.resultTokens += s.results.tokens;
    a.calls += s.results.calls;
    m.set(key, a);
  }
  return [...m.values()].sort((x, y) => y.usage.total - x.usage.total || x.agent.localeCompare(y.agent));
}

/** A read of the surface itself: a help page or a schema. */
const SURFACE_READ = / --(help|input-schema|output-schema|error-schema)$/;

/** What to change, from the figures: results near the budget, help read again and again, failing calls, a heavy surface. */
export function suggest(r: Report): string[] {
  const out: string[] = [];
  for (const t of r.total.tools) {
    if (t.maxResultTokens >= RESULT_BUDGET_TOKENS / 2) {
      out.push(`${t.tool}: a result reached ${t.maxResultTokens} tokens (budget ≈${RESULT_BUDGET_TOKENS}); ask for fewer items (limit) or one section at a time.`);
    }
    if (t.calls >= 4 && t.errors / t.calls >= 0.25) out.push(`${t.tool}: ${t.errors} of ${t.calls} calls failed; the error hints say what to change.`);
  }
  for (const s of r.sessions) {
    for (const t of s.tools) {
      if (!SURFACE_READ.test(t.tool) || t.calls < 2) continue;
      const each = t.results ? Math.round(t.resultTokens / t.results) : (r.surface.help.all[t.tool] ?? 0);
      out.push(`${s.agent ?? s.sessionId}: read \`agentteam ${t.tool}\` ${t.calls}× in one session (${each} tokens each); put what it needs in the agent's instructions.`);
    }
    if (s.surface.shareOfInput >= 0.25 && s.requests >= 3) {
      out.push(`${s.agent ?? s.sessionId}: AgentTeam's instructions and tools were ${Math.round(s.surface.shareOfInput * 100)}% of its input (${s.surface.perRequest} tokens a request); short turns pay it most.`);
    }
  }
  // The same help page read in several sessions of one agent: it belongs in that agent's standing instructions.
  const byAgent = new Map<string, Set<string>>();
  for (const s of r.sessions) {
    for (const t of s.tools) if (SURFACE_READ.test(t.tool) && s.agent) byAgent.set(`${s.agent}\0${t.tool}`, (byAgent.get(`${s.agent}\0${t.tool}`) ?? new Set()).add(s.sessionId));
  }
  for (const [key, ids] of byAgent) {
    const [agent, help] = key.split('\0') as [string, string];
    if (ids.size >= 3) out.push(`${agent}: read \`agentteam ${help}\` in ${ids.size} sessions (${r.surface.help.all[help] ?? '?'} tokens each time); name the action it looks up in the agent's instructions.`);
  }
  return [...new Set(out)].slice(0, 20);
}
