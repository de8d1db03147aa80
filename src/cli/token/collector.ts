// Owns one session's token account as the runtime readers feed it: usage per model request, AgentTeam tool calls and results, help reads.
import { classify, type Classified } from './classify.js';
import { requestCost } from './pricing.js';
import { addCost, addUsage, zeroCost, zeroUsage, type Cost, type RecordedCost, type TokenRuntime, type Usage } from './usage.js';
import type { ResponseLedger } from './responses.js';

export { classify, classifyCommand, classifyToolName, INVENTORY, SHELL_TOOLS, shellCommand, type Classified } from './classify.js';

export { addCost, addUsage, costUSD, TOKEN_RUNTIMES, totalOf, zeroCost, zeroUsage, type Cost, type RecordedCost, type TokenRuntime, type Usage } from './usage.js';

export interface ToolStat {
  calls: number;
  /** Results seen (a call whose result is missing from the transcript has none). */
  results: number;
  resultTokens: number;
  maxResultTokens: number;
  errors: number;
}

export interface LargeResult {
  tool: string;
  tokens: number;
  at: string | undefined;
}

/** What one request put in its account, so that a later snapshot of the same response can replace it (responses.ts). */
export interface Counted {
  readonly account: SessionAccount;
  readonly day: string;
  usage: Usage;
  /** null: its model has no price. */
  usd: number | null;
  model: string | undefined;
  /** The account's request number: a revision of its latest request also moves the session's model and step baseline. */
  readonly serial: number;
}

/** `You are @NAME.`: the turn part of a prompt the daemon compiled (src/sessions/prompt.ts). */
const TURN_MARK = /## This turn\s+You are @("(?:[^"\\]|\\.)*"|[^\s.]+(?:\.[^\s.]+)*)\. /;

export class SessionAccount {
  readonly usage = zeroUsage();
  readonly days = new Map<string, Usage>();
  readonly cost = zeroCost();
  readonly dayCosts = new Map<string, Cost>();
  /** Requests whose model has no price, by model (`(none)` when the runtime recorded none). */
  readonly unpriced = new Map<string, number>();
  readonly tools = new Map<string, ToolStat>();
  /** Help reads by command (`exec task --help`): how often and what they cost. */
  readonly help = new Map<string, { reads: number; tokens: number }>();
  readonly largest: LargeResult[] = [];
  requests = 0;
  firstAt: string | undefined;
  lastAt: string | undefined;
  model: string | undefined;
  /** From the compiled turn prompt, when the transcript holds one. */
  agentName: string | undefined;
  /** True once anything of AgentTeam's (turn prompt, tool, exec call) was seen. */
  agentteam = false;
  private readonly pending = new Map<string, Classified>();
  /**
   * Tokenizer check against the runtime's own figures: between two requests whose only new content is AgentTeam results,
   * the growth of the recorded context (input of all kinds, minus the previous output) is what the model's tokenizer made
   * of those results (plus a few framing tokens each); `o200k` is what ours made of them.
   */
  readonly calibration = { steps: 0, recorded: 0, o200k: 0 };
  private prevContext: number | undefined;
  private prevOutput = 0;
  private stepResults = 0;
  private stepOthers = false;

  constructor(
    readonly runtime: TokenRuntime,
    readonly sessionId: string,
    private readonly count: (text: string) => number,
    private readonly sinceMs: number | undefined,
    /** Exclusive end (the UTC midnight after `--until`'s day). */
    private readonly untilMs?: number,
  ) {}

  private inRange(at: string | undefined): boolean {
    if ((this.sinceMs === undefined && this.untilMs === undefined) || at === undefined) return true;
    const t = Date.parse(at);
    return Number.isNaN(t) || ((this.sinceMs === undefined || t >= this.sinceMs) && (this.untilMs === undefined || t < this.untilMs));
  }

  private seen(at: string | undefined): void {
    if (!at) return;
    if (!this.firstAt || at < this.firstAt) this.firstAt = at;
    if (!this.lastAt || at > this.lastAt) this.lastAt = at;
  }

  /** One model request's usage; `recorded`: a cost or speed the runtime wrote beside it. Returns what it counted (nothing when out of range). */
  request(at: string | undefined, u: Usage, model?: string, recorded?: RecordedCost): Counted | undefined {
    if (!this.inRange(at)) return undefined;
    this.seen(at);
    this.requests++;
    const context = u.input + u.cachedInput + u.cacheWrite;
    const growth = this.prevContext === undefined ? 0 : context - this.prevContext - this.prevOutput;
    // Not for Codex: it runs a call while its response still streams, so a rollout records a step's results before
    // that step's token_count, and steps cannot be told apart by order.
    if (this.runtime !== 'codex' && this.stepResults > 0 && !this.stepOthers && growth > 0) {
      this.calibration.steps++;
      this.calibration.recorded += growth;
      this.calibration.o200k += this.stepResults;
    }
    this.prevContext = context;
    this.prevOutput = u.output;
    this.stepResults = 0;
    this.stepOthers = false;
    if (model) this.model = model;
    const day = at ? new Date(at).toISOString().slice(0, 10) : 'unknown';
    const usd = requestCost(this.runtime, u, model, recorded);
    this.book(day, u, usd, model, 1);
    return { account: this, day, usage: { ...u }, usd, model, serial: this.requests };
  }

  /**
   * A later snapshot of the response `c` counted: its figures replace `c`'s whole (usage, model, cost) in the session and
   * day it was counted in, by difference; the request count, AgentTeam's share per request and tool calls stay as they are.
   */
  revise(c: Counted, u: Usage, model?: string, recorded?: RecordedCost): void {
    const usd = requestCost(this.runtime, u, model, recorded);
    const same = usd === c.usd && model === c.model && u.input === c.usage.input && u.cachedInput === c.usage.cachedInput && u.cacheWrite === c.usage.cacheWrite && u.output === c.usage.output;
    if (same) return;
    this.book(c.day, c.usage, c.usd, c.model, -1);
    this.book(c.day, u, usd, model, 1);
    c.usage = { ...u };
    c.usd = usd;
    c.model = model;
    if (c.serial !== this.requests) return;
    // The latest request: its final figures are the next step's baseline (the output is in the next context).
    if (model) this.model = model;
    this.prevContext = u.input + u.cachedInput + u.cacheWrite;
    this.prevOutput = u.output;
  }

  /** Adds (sign 1) or takes away (-1) one request's tokens and cost in the session and `day`. */
  private book(day: string, u: Usage, usd: number | null, model: string | undefined, sign: 1 | -1): void {
    addUsage(this.usage, u, sign);
    const d = this.days.get(day) ?? zeroUsage();
    addUsage(d, u, sign);
    this.days.set(day, d);
    const c: Cost = usd === null ? { usd: 0, unpriced: 1 } : { usd, unpriced: 0 };
    if (usd === null) {
      const n = (this.unpriced.get(model ?? '(none)') ?? 0) + sign;
      if (n > 0) this.unpriced.set(model ?? '(none)', n);
      else this.unpriced.delete(model ?? '(none)');
    }
    addCost(this.cost, c, sign);
    const dc = this.dayCosts.get(day) ?? zeroCost();
    addCost(dc, c, sign);
    this.dayCosts.set(day, dc);
  }

  /** Turn prompts the daemon compiled that this session received. */
  turns = 0;

  /** A user-side text (the turn prompt): finds the agent's name. */
  userText(text: string): void {
    const m = TURN_MARK.exec(text);
    if (!m) return;
    this.turns++;
    this.agentteam = true;
    if (this.agentName) return;
    const raw = m[1]!.slice(0, 512);
    let name = raw;
    try {
      if (raw.startsWith('"')) name = JSON.parse(raw) as string;
    } catch {
      /* a clipped quoted name stays as written */
    }
    // Bounded: member names are at most 64 characters; a transcript is not trusted to keep to that.
    this.agentName = name.slice(0, 128);
  }

  /** A tool call by model-visible name; `input` is read for a shell command. Returns what it is for AgentTeam. */
  toolCall(id: string, name: string, input: unknown, at?: string): Classified | null {
    // A snapshot that repeats a call still waiting for its result is that call again, not another one.
    const known = id ? this.pending.get(id) : undefined;
    if (known) return known;
    const c = classify(name, input);
    if (!c || !this.inRange(at)) return null;
    this.countCall(c);
    if (id) this.pending.set(id, c);
    return c;
  }

  /** Counts one call of an already classified tool. */
  countCall(c: Classified): void {
    this.agentteam = true;
    this.stat(c.tool).calls++;
  }

  /** The result of call `id` as the model read it. */
  toolResult(id: string, text: string, isError: boolean, at?: string): void {
    const c = this.pending.get(id);
    if (!c) return this.otherResult();
    this.pending.delete(id);
    this.resultOf(c, text, isError, at);
  }

  /** A result of a tool that is not AgentTeam's: the next request's growth is not ours alone. */
  otherResult(): void {
    this.stepOthers = true;
  }

  /** A result of a call classified elsewhere (e.g. a nested call whose id the transcript does not keep). */
  resultOf(c: Classified, text: string, isError: boolean, at?: string): void {
    this.resultTokens(c, this.count(text), isError, at);
  }

  /** A result whose tokens are already counted. */
  resultTokens(c: Classified, tokens: number, isError: boolean, at?: string): void {
    if (!this.inRange(at)) return;
    this.stepResults += tokens;
    const key = c.tool;
    const s = this.stat(key);
    s.results++;
    s.resultTokens += tokens;
    s.maxResultTokens = Math.max(s.maxResultTokens, tokens);
    if (isError) s.errors++;
    if (c.help) {
      const h = this.help.get(key) ?? { reads: 0, tokens: 0 };
      h.reads++;
      h.tokens += tokens;
      this.help.set(key, h);
    }
    this.largest.push({ tool: key, tokens, at });
    this.largest.sort((a, b) => b.tokens - a.tokens);
    if (this.largest.length > 5) this.largest.length = 5;
  }

  /** AgentTeam surface the transcript itself shows the model read (e.g. MCP instructions, dynamic tool schemas): tokens by kind. */
  readonly surfaceSeen: Record<string, number> = {};
  surface(kind: string, text: string): void {
    this.agentteam = true;
    this.surfaceSeen[kind] = Math.max(this.surfaceSeen[kind] ?? 0, this.count(text));
  }

  /** o200k tokens of a text, with this session's counter. */
  tokens(text: string): number {
    return this.count(text);
  }

  private stat(key: string): ToolStat {
    let s = this.tools.get(key);
    if (!s) this.tools.set(key, (s = { calls: 0, results: 0, resultTokens: 0, maxResultTokens: 0, errors: 0 }));
    return s;
  }
}

/** What a runtime reader gets: the session accounts (shared across files, so a subagent file joins its session) and progress. */
export interface ReadContext {
  account(runtime: TokenRuntime, sessionId: string): SessionAccount;
  progress?: (bytes: number) => void;
  /**
   * Claude responses by `message.id:requestId`, across files: one response is written as several lines (snapshots), and a
   * resumed or forked session may repeat earlier lines in a new file. Each is counted once, from its final snapshot.
   */
  responses: ResponseLedger;
}

/** The text a tool result carries: a string, MCP/Messages content blocks, or JSON. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b) => (typeof b === 'object' && b !== null && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : resultText(b))).join('\n');
  if (content === undefined || content === null) return '';
  return JSON.stringify(content);
}
