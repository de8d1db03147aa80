// Measures o200k (gpt-tokenizer) against real usage figures: per model request whose only new context is tool results, the recorded context growth over o200k's count of those results.
// Usage: node --import tsx bench/token-calibration.ts FILE.jsonl… (Claude Code sessions or Codex rollouts; prints a JSON summary per runtime).
// Also totals Claude responses (by message.id + requestId across all files, subagent files too) by their first lines
// (ccusage 18.0.11's count) and by their final ones (token analyze's), tokens per kind and cost by src/cli/token/pricing.ts.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { Usage } from '../src/cli/token/collector.js';
import { requestCost } from '../src/cli/token/pricing.js';

type Obj = Record<string, any>;
interface Response {
  id: string;
  model: string;
  context: number;
  /** The largest output_tokens among the response's lines: Claude Code writes a line per content block, the last one with the final count. */
  output: number;
  firstOutput: number;
}
interface Step {
  file: string;
  model?: string;
  line: number;
  results: number;
  o200k: number;
  recorded: number;
}

const text = (c: unknown): string | null => {
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return null;
  const parts: string[] = [];
  for (const b of c) {
    if (b?.type !== 'text' || typeof b.text !== 'string') return null; // an image or other block: not text we can count
    parts.push(b.text);
  }
  return parts.join('\n');
};

const steps: Record<'claude' | 'codex', Step[]> = { claude: [], codex: [] };
/** Per response: its first line and the line with the most output (a later line winning a tie), each whole. */
const responses = new Map<string, { first: Obj; final: Obj }>();
function response(l: Obj): void {
  const u = l.message?.usage;
  if (l.type !== 'assistant' || !u || l.message.model === '<synthetic>' || l.message.id === undefined || l.requestId === undefined) return;
  const key = `${l.message.id}:${l.requestId}`;
  const r = responses.get(key);
  if (!r) responses.set(key, { first: l, final: l });
  else if ((u.output_tokens ?? 0) >= (r.final.message.usage.output_tokens ?? 0)) r.final = l;
}
function responseTotals(which: 'first' | 'final') {
  const t = { input: 0, cachedInput: 0, cacheWrite: 0, output: 0, usd: 0 };
  for (const r of responses.values()) {
    const l = r[which];
    const u = l.message.usage;
    const x: Usage = { input: u.input_tokens ?? 0, cachedInput: u.cache_read_input_tokens ?? 0, cacheWrite: u.cache_creation_input_tokens ?? 0, output: u.output_tokens ?? 0 };
    t.input += x.input;
    t.cachedInput += x.cachedInput;
    t.cacheWrite += x.cacheWrite;
    t.output += x.output;
    t.usd += requestCost('claude', x, l.message.model, { ...(typeof l.costUSD === 'number' ? { costUSD: l.costUSD } : {}), ...(u.speed ? { speed: u.speed } : {}) }) ?? NaN;
  }
  return { ...t, usd: Math.round(t.usd * 1e6) / 1e6 };
}
let firstOutputs = 0;
let finalOutputs = 0;

/**
 * Codex: a response's calls come before its token_count, their outputs after it; so the outputs between two
 * token_count events are the only new input of the second request (besides the first one's output and reasoning).
 */
function codex(file: string, lines: Obj[]): void {
  let prev: { input: number; output: number } | undefined;
  let pending: string[] = [];
  let clean = true;
  // A response that searched the web sampled more than once, with results the rollout does not hold: its step and the next are out.
  let searched = false;
  lines.forEach((l, i) => {
    const p = l.payload ?? {};
    if (l.type === 'response_item' && p.type === 'web_search_call') {
      searched = true;
      clean = false;
      return;
    }
    if (l.type === 'event_msg' && p.type === 'token_count') {
      const u = p.info?.last_token_usage;
      if (!u) return;
      if (prev && pending.length && clean) {
        const o200k = pending.reduce((n, t) => n + countTokens(t), 0);
        steps.codex.push({ file: basename(file), line: i + 1, results: pending.length, o200k, recorded: u.input_tokens - prev.input - prev.output });
      }
      prev = { input: u.input_tokens, output: u.output_tokens };
      pending = [];
      clean = !searched;
      searched = false;
    } else if (l.type === 'response_item' && (p.type === 'function_call_output' || p.type === 'custom_tool_call_output')) {
      const t = typeof p.output === 'string' ? p.output : text(p.output?.content ?? p.output);
      if (t === null) clean = false;
      else pending.push(t);
    } else if ((l.type === 'response_item' && p.type === 'message' && p.role !== 'assistant') || l.type === 'turn_context' || (l.type === 'event_msg' && p.type === 'user_message')) clean = false;
  });
}

for (const file of process.argv.slice(2)) {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Obj);
  if (lines[0]?.type === 'session_meta') {
    codex(file, lines);
    continue;
  }
  let prev: Response | undefined;
  let cur: Response | undefined;
  let pending: string[] = [];
  let clean = true;
  lines.forEach((l, i) => {
    response(l);
    if (l.isSidechain) return;
    if (l.type === 'assistant' && l.message?.usage) {
      const u = l.message.usage;
      const id = `${l.message.id}:${l.requestId}`;
      if (cur && cur.id === id) {
        cur.output = Math.max(cur.output, u.output_tokens ?? 0);
        return;
      }
      // A new response: the previous one is final now.
      if (cur) {
        firstOutputs += cur.firstOutput;
        finalOutputs += cur.output;
      }
      const context = (u.input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
      prev = cur;
      cur = { id, model: String(l.message.model), context, output: u.output_tokens ?? 0, firstOutput: u.output_tokens ?? 0 };
      // Another model's request in between (a Haiku side call) has a context of its own: not a step.
      if (prev && prev.model === cur.model && pending.length && clean) {
        const o200k = pending.reduce((n, t) => n + countTokens(t), 0);
        steps.claude.push({ file: basename(file), line: i + 1, model: cur.model, results: pending.length, o200k, recorded: context - prev.context - prev.output });
      }
      pending = [];
      clean = true;
      return;
    }
    if (l.type === 'user' && !l.isMeta) {
      const c = l.message?.content;
      if (!Array.isArray(c)) return void (clean = false);
      for (const b of c) {
        const t = b?.type === 'tool_result' ? text(b.content) : null;
        if (t === null) clean = false;
        else pending.push(t);
      }
    } else if (l.type === 'system' || l.type === 'attachment' || (l.type === 'user' && l.isMeta)) clean = false;
  });
  if (cur) {
    firstOutputs += cur.firstOutput;
    finalOutputs += cur.output;
  }
}

// Small results are mostly framing; steps of 500+ o200k tokens say what the tokenizers make of text.
function summary(all: Step[]) {
  const big = all.filter((s) => s.o200k >= 500 && s.recorded > 0);
  const ratios = big.map((s) => s.recorded / s.o200k).sort((a, b) => a - b);
  const q = (p: number) => Math.round((ratios[Math.min(ratios.length - 1, Math.floor(p * ratios.length))] ?? NaN) * 1000) / 1000;
  const sum = (k: 'recorded' | 'o200k') => big.reduce((n, s) => n + s[k], 0);
  return { steps: all.length, measured: big.length, recorded: sum('recorded'), o200k: sum('o200k'), ratio: Math.round((sum('recorded') / sum('o200k')) * 1000) / 1000, p10: q(0.1), median: q(0.5), p90: q(0.9) };
}
const out = {
  claude: { ...summary(steps.claude), outputFirstLines: firstOutputs, outputFinalLines: finalOutputs },
  claudeResponses: { responses: responses.size, firstLines: responseTotals('first'), finalLines: responseTotals('final') },
  codex: summary(steps.codex),
  ...(process.env.STEPS ? { each: steps } : {}),
};
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
