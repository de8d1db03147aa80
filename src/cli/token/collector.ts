// Owns one session's token account as the runtime readers feed it: usage per model request, AgentTeam tool calls and results, help reads.
import { createToolNamer, RUNTIME_KINDS } from '../../wire/mcp/naming.js';
import { requestCost, type RecordedCost } from './pricing.js';

export type TokenRuntime = 'claude' | 'codex' | 'opencode';
export const TOKEN_RUNTIMES: readonly TokenRuntime[] = ['claude', 'codex', 'opencode'];

/** Token figures as the runtime recorded them. `input` is the uncached input (Codex's input minus its cached part). */
export interface Usage {
  input: number;
  cachedInput: number;
  cacheWrite: number;
  output: number;
}

export const zeroUsage = (): Usage => ({ input: 0, cachedInput: 0, cacheWrite: 0, output: 0 });
export function addUsage(a: Usage, b: Usage): void {
  a.input += b.input;
  a.cachedInput += b.cachedInput;
  a.cacheWrite += b.cacheWrite;
  a.output += b.output;
}
export const totalOf = (u: Usage): number => u.input + u.cachedInput + u.cacheWrite + u.output;

/** Cost in USD of some requests: `usd` sums the priced ones; `unpriced` counts those whose model has no price. */
export interface Cost {
  usd: number;
  unpriced: number;
}
export const zeroCost = (): Cost => ({ usd: 0, unpriced: 0 });
export function addCost(a: Cost, b: Cost): void {
  a.usd += b.usd;
  a.unpriced += b.unpriced;
}
/** The cost as reported: null (unknown) when any request in it was unpriced, never a partial sum. */
export const costUSD = (c: Cost): number | null => (c.unpriced > 0 ? null : Math.round(c.usd * 1e6) / 1e6);

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

/** What a model-visible tool name or shell command is, for AgentTeam: an inventory tool, an exec action, a help read. */
export interface Classified {
  /** `message_send`, `exec task create`, or a surface read: `exec task --help`, `exec task create --input-schema`. */
  tool: string;
  /** A read of the surface itself (`--help`, a schema), not an action. */
  help: boolean;
}

export const INVENTORY = ['kb_fetch', 'kb_search', 'memory_search', 'message_attachment_read', 'message_history_read', 'message_react', 'message_send'];
const NAMERS = RUNTIME_KINDS.flatMap((k) => [createToolNamer(k, INVENTORY), createToolNamer(k, INVENTORY, { nativeMcp: true })]);
/** `agentteam exec <domain> [<action>] … [--help]`, anywhere in a shell command (paths to the binary included). */
const EXEC = /(?:^|[\s;&|(/])agentteam\s+exec((?:\s+[a-z][a-z0-9-]*){0,2})([^;&|\n]*)/;
/** Shell tools of the runtimes: Claude `Bash`, OpenCode `bash`, Codex `shell`/`exec_command`/`local_shell`. */
export const SHELL_TOOLS = new Set(['Bash', 'bash', 'shell', 'exec_command', 'local_shell', 'shell_command']);

/** The AgentTeam tool behind a model-visible tool name (any runtime's naming), or null. */
export function classifyToolName(name: string): Classified | null {
  for (const n of NAMERS) {
    const hit = n.fromModel(name);
    if (hit) return { tool: hit.tool, help: false };
  }
  return null;
}

/** What a tool call is for AgentTeam (by its model-visible name, or the command a shell tool runs), or null. */
export function classify(name: string, input: unknown): Classified | null {
  return classifyToolName(name) ?? (SHELL_TOOLS.has(name) ? classifyCommand(shellCommand(input) ?? '') : null);
}

/** The AgentTeam exec action (or help read) a shell command runs, or null. */
export function classifyCommand(command: string): Classified | null {
  const m = EXEC.exec(command);
  if (!m) return null;
  const words = m[1]!.trim().split(/\s+/).filter(Boolean);
  const flag = /(?:^|\s)(--help|-h|--input-schema|--output-schema|--error-schema)(?=\s|$)/.exec(m[2]!)?.[1];
  const read = flag === undefined ? (words.length === 0 ? '--help' : undefined) : flag === '-h' ? '--help' : flag;
  return { tool: ['exec', ...words, ...(read ? [read] : [])].join(' '), help: read !== undefined };
}

/** A shell call's command from its input, in any runtime's shape (string, argv array, `cmd`, `command`). */
export function shellCommand(input: unknown): string | null {
  if (typeof input === 'string') {
    try {
      return shellCommand(JSON.parse(input));
    } catch {
      return input;
    }
  }
  if (typeof input !== 'object' || input === null) return null;
  const o = input as Record<string, unknown>;
  const c = o.command ?? o.cmd;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.filter((x) => typeof x === 'string').join(' ');
  return null;
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

  /** One model request's usage; `recorded`: a cost or speed the runtime wrote beside it. */
  request(at: string | undefined, u: Usage, model?: string, recorded?: RecordedCost): void {
    if (!this.inRange(at)) return;
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
    addUsage(this.usage, u);
    if (model) this.model = model;
    const day = at ? new Date(at).toISOString().slice(0, 10) : 'unknown';
    const d = this.days.get(day) ?? zeroUsage();
    addUsage(d, u);
    this.days.set(day, d);
    const usd = requestCost(this.runtime, u, model, recorded);
    const c: Cost = usd === null ? { usd: 0, unpriced: 1 } : { usd, unpriced: 0 };
    if (usd === null) this.unpriced.set(model ?? '(none)', (this.unpriced.get(model ?? '(none)') ?? 0) + 1);
    addCost(this.cost, c);
    const dc = this.dayCosts.get(day) ?? zeroCost();
    addCost(dc, c);
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
   * True when a response key (Claude `message.id:requestId`) was already counted in this run, in any file: one response
   * is written as several lines, and a resumed or forked session may repeat earlier lines in a new file (ccusage's rule).
   */
  duplicate(key: string): boolean;
}

/** The text a tool result carries: a string, MCP/Messages content blocks, or JSON. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b) => (typeof b === 'object' && b !== null && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : resultText(b))).join('\n');
  if (content === undefined || content === null) return '';
  return JSON.stringify(content);
}
