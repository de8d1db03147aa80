// Measures o200k (gpt-tokenizer) against real Claude Code usage figures: per step whose only new context is tool results, the recorded context growth over o200k's count of those results.
// Usage: node --import tsx bench/token-calibration.ts FILE.jsonl… (Claude Code session transcripts; prints a JSON summary).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

type Obj = Record<string, any>;
interface Response {
  id: string;
  context: number;
  /** The largest output_tokens among the response's lines: Claude Code writes a line per content block, the last one with the final count. */
  output: number;
  firstOutput: number;
}
interface Step {
  file: string;
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

const steps: Step[] = [];
let firstOutputs = 0;
let finalOutputs = 0;
for (const file of process.argv.slice(2)) {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Obj);
  let prev: Response | undefined;
  let cur: Response | undefined;
  let pending: string[] = [];
  let clean = true;
  lines.forEach((l, i) => {
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
      cur = { id, context, output: u.output_tokens ?? 0, firstOutput: u.output_tokens ?? 0 };
      if (prev && pending.length && clean) {
        const o200k = pending.reduce((n, t) => n + countTokens(t), 0);
        steps.push({ file: basename(file), line: i + 1, results: pending.length, o200k, recorded: context - prev.context - prev.output });
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
const big = steps.filter((s) => s.o200k >= 500 && s.recorded > 0);
const ratios = big.map((s) => s.recorded / s.o200k).sort((a, b) => a - b);
const q = (p: number) => Math.round((ratios[Math.min(ratios.length - 1, Math.floor(p * ratios.length))] ?? NaN) * 1000) / 1000;
const sum = (k: 'recorded' | 'o200k') => big.reduce((n, s) => n + s[k], 0);
process.stdout.write(
  JSON.stringify(
    {
      steps: steps.length,
      measured: big.length,
      recorded: sum('recorded'),
      o200k: sum('o200k'),
      ratio: Math.round((sum('recorded') / sum('o200k')) * 1000) / 1000,
      p10: q(0.1),
      median: q(0.5),
      p90: q(0.9),
      outputFirstLines: firstOutputs,
      outputFinalLines: finalOutputs,
    },
    null,
    1,
  ) + '\n',
);
