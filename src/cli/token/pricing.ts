// Owns the cost in USD of one model request, by ccusage's rules, from the pinned LiteLLM price table beside it (pricing.json; no network).
import table from './pricing.json' with { type: 'json' };
import type { RecordedCost, TokenRuntime, Usage } from './usage.js';

export type { RecordedCost } from './usage.js';

/** One model's prices in USD per token, as LiteLLM names them; `fast_multiplier` is its `provider_specific_entry.fast`. */
export interface ModelPrice {
  input_cost_per_token?: number;
  output_cost_per_token?: number;
  cache_creation_input_token_cost?: number;
  cache_read_input_token_cost?: number;
  input_cost_per_token_above_200k_tokens?: number;
  output_cost_per_token_above_200k_tokens?: number;
  cache_creation_input_token_cost_above_200k_tokens?: number;
  cache_read_input_token_cost_above_200k_tokens?: number;
  fast_multiplier?: number;
}

export interface PriceTable {
  source: string;
  retrieved: string;
  anthropic: Record<string, ModelPrice>;
  openai: Record<string, ModelPrice>;
}

export const PRICES: PriceTable = table;


const PROVIDER = /^(?:anthropic[/.]|openai\/|azure\/|openrouter\/(?:openai|anthropic)\/|bedrock\/(?:anthropic\.)?|vertex_ai\/)/;
/** A dated snapshot name (`claude-sonnet-4-5-20250929`, `gpt-5-2025-08-07`, `claude-haiku-4-5@20251001`). */
const DATED = /[-@](?:\d{8}|\d{4}-\d{2}-\d{2})(?:-v\d+(?::\d+)?)?$/;

/**
 * The price of `model`: its exact name, then without a provider prefix, then without a date suffix. No substring
 * guessing (ccusage also matches any name containing another, which can price an unknown model as an older one).
 */
export function priceOf(model: string | undefined, prices: PriceTable = PRICES): ModelPrice | null {
  if (!model) return null;
  const all: Record<string, ModelPrice> = { ...prices.anthropic, ...prices.openai };
  const name = model.trim().toLowerCase();
  const bare = name.replace(PROVIDER, '');
  for (const n of [name, bare, bare.replace(DATED, '')]) {
    if (Object.hasOwn(all, n)) return all[n]!;
  }
  return null;
}

/** ccusage's tiered rule: over 200k tokens of one kind in one request, the tokens above it at the `above_200k` price where there is one. */
function tiered(tokens: number, base: number | undefined, above: number | undefined): number {
  if (tokens <= 0) return 0;
  if (tokens > 200_000 && above !== undefined) return Math.min(tokens, 200_000) * (base ?? 0) + (tokens - 200_000) * above;
  return tokens * (base ?? 0);
}

/** LiteLLM's four prices over the four token kinds (Claude Code and OpenCode record input apart from cache reads and writes). */
function claudeCost(u: Usage, p: ModelPrice, speed: string | undefined): number {
  const cost =
    tiered(u.input, p.input_cost_per_token, p.input_cost_per_token_above_200k_tokens) +
    tiered(u.output, p.output_cost_per_token, p.output_cost_per_token_above_200k_tokens) +
    tiered(u.cacheWrite, p.cache_creation_input_token_cost, p.cache_creation_input_token_cost_above_200k_tokens) +
    tiered(u.cachedInput, p.cache_read_input_token_cost, p.cache_read_input_token_cost_above_200k_tokens);
  return speed === 'fast' ? cost * (p.fast_multiplier ?? 1) : cost;
}

/** @ccusage/codex's rule: uncached input (cache writes included) at the input price, cached input at the cached price (else input's), output. */
function codexCost(u: Usage, p: ModelPrice): number {
  const input = p.input_cost_per_token ?? 0;
  return (u.input + u.cacheWrite) * input + u.cachedInput * (p.cache_read_input_token_cost ?? input) + u.output * (p.output_cost_per_token ?? 0);
}

/**
 * One request's cost in USD, or null when its model has no price (never a guess). A cost the runtime recorded wins, as
 * in ccusage's default `auto` mode: Claude Code's `costUSD`, OpenCode's own `cost`.
 */
export function requestCost(runtime: TokenRuntime, u: Usage, model: string | undefined, recorded: RecordedCost = {}, prices: PriceTable = PRICES): number | null {
  if (recorded.costUSD !== undefined && Number.isFinite(recorded.costUSD) && recorded.costUSD >= 0) return recorded.costUSD;
  const p = priceOf(model, prices);
  if (!p) return null;
  return runtime === 'codex' ? codexCost(u, p) : claudeCost(u, p, recorded.speed);
}
