// Owns the token figures every part of the report adds up: the runtimes read, usage per request, cost in USD.

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
/** Adds `b` to `a` (`sign` -1 takes it away again). */
export function addUsage(a: Usage, b: Usage, sign: 1 | -1 = 1): void {
  a.input += sign * b.input;
  a.cachedInput += sign * b.cachedInput;
  a.cacheWrite += sign * b.cacheWrite;
  a.output += sign * b.output;
}
export const totalOf = (u: Usage): number => u.input + u.cachedInput + u.cacheWrite + u.output;

/** Cost in USD of some requests: `usd` sums the priced ones; `unpriced` counts those whose model has no price. */
export interface Cost {
  usd: number;
  unpriced: number;
}
export const zeroCost = (): Cost => ({ usd: 0, unpriced: 0 });
export function addCost(a: Cost, b: Cost, sign: 1 | -1 = 1): void {
  a.usd += sign * b.usd;
  a.unpriced += sign * b.unpriced;
}
/** The cost as reported: null (unknown) when any request in it was unpriced, never a partial sum. */
export const costUSD = (c: Cost): number | null => (c.unpriced > 0 ? null : Math.round(c.usd * 1e6) / 1e6);

/** What a request's runtime recorded beside its tokens: Claude Code's `costUSD`, OpenCode's `cost`, Claude's `usage.speed`. */
export interface RecordedCost {
  costUSD?: number;
  speed?: string;
}
