// Checks cost in USD against what ccusage 18.0.11 printed on the cost fixtures (ccusage-18.0.11.json), the pricing rules one by one, and --until.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { CliError } from '../cli-error.js';
import { analyze, parseUntil } from './analyze.js';
import type { Report } from './report.js';
import { PRICES, priceOf, requestCost } from './pricing.js';

const COST = join(dirname(fileURLToPath(import.meta.url)), 'cost-fixtures');
/** ccusage's own output, recorded once by the commands it lists (not computed here). */
const CCUSAGE = JSON.parse(readFileSync(join(COST, 'ccusage-18.0.11.json'), 'utf8'));
/** Claude sessions by the project folder ccusage 18 names them by. */
const CLAUDE_PROJECT: Record<string, string> = {
  '7d1c6a52-0c2f-4a39-9d0e-0f3a8c1b2e01': '-work-sonnet',
  '4b0e9f1a-5a77-4c7e-b1d5-7d2f4c9e8a02': '-work-opus',
  'c3f1e2d4-9b8a-4c6d-a5e7-1f2b3c4d5e03': '-work-unpriced',
};
const UNPRICED = new Set(['-work-unpriced', '019ac1d0-3333-7a2b-8c3d-4e5f6a7b8c03']);

interface Gap {
  output: number;
  usd: number;
}
/**
 * ccusage 18.0.11 counts a Claude Code response from its first line (its issue #901); we count it from its final one
 * (the most output, a later line winning a tie). What that adds, computed from the fixture's own lines: per project
 * folder (ccusage's session), per UTC day of the response's first line, and in all.
 */
function firstLineGap(): { sessions: Map<string, Gap>; days: Map<string, Gap>; total: Gap } {
  const root = join(COST, 'claude', 'projects');
  const responses = new Map<string, { project: string; day: string; first: any; final: any }>();
  for (const rel of readdirSync(root, { recursive: true }) as string[]) {
    if (!rel.endsWith('.jsonl')) continue;
    for (const text of readFileSync(join(root, rel), 'utf8').split('\n').filter(Boolean)) {
      const l = JSON.parse(text);
      if (l.type !== 'assistant' || !l.message?.usage || l.message.model === '<synthetic>') continue;
      const key = `${l.message.id}:${l.requestId}`;
      const r = responses.get(key);
      if (!r) responses.set(key, { project: basename(dirname(join(root, rel))), day: l.timestamp.slice(0, 10), first: l, final: l });
      else if (l.message.usage.output_tokens >= r.final.message.usage.output_tokens) r.final = l;
    }
  }
  const cost = (l: any) => {
    const u = l.message.usage;
    const usage = { input: u.input_tokens, cachedInput: u.cache_read_input_tokens, cacheWrite: u.cache_creation_input_tokens, output: u.output_tokens };
    return l.costUSD ?? requestCost('claude', usage, l.message.model, u.speed ? { speed: u.speed } : {}) ?? 0;
  };
  const sessions = new Map<string, Gap>();
  const days = new Map<string, Gap>();
  const total = { output: 0, usd: 0 };
  for (const r of responses.values()) {
    const output = r.final.message.usage.output_tokens - r.first.message.usage.output_tokens;
    const usd = cost(r.final) - cost(r.first);
    for (const g of [sessions.get(r.project) ?? (sessions.set(r.project, { output: 0, usd: 0 }), sessions.get(r.project)!), days.get(r.day) ?? (days.set(r.day, { output: 0, usd: 0 }), days.get(r.day)!), total]) {
      g.output += output;
      g.usd += usd;
    }
  }
  return { sessions, days, total };
}
const GAP = firstLineGap();
const none: Gap = { output: 0, usd: 0 };

async function report(o: { runtime?: string; since?: string; until?: string } = {}): Promise<Report> {
  const stdout = Object.assign(new Writable({ write: (_c, _e, cb) => cb() }), { isTTY: false });
  const stderr = Object.assign(new Writable({ write: (_c, _e, cb) => cb() }), { isTTY: false });
  return analyze({ from: COST, all: true, ...o }, { home: '/nonexistent', homeGiven: false, stdout, stderr });
}
const close = (a: number | null, b: number, what: string) => assert.ok(a !== null && Math.abs(a - b) < 1e-6, `${what}: ours ${a}, ccusage ${b}`);

test('Claude Code: input, cached input and cache writes per session and per UTC day equal ccusage 18.0.11 (session/daily --offline); output and cost exceed it by its first-line undercount; an unpriced model is null, not 0', async () => {
  assert.ok(GAP.total.output > 0 && GAP.total.usd > 0, 'the fixtures hold responses written as several lines whose output grows');
  const r = await report({ runtime: 'claude' });
  const theirs = CCUSAGE.claude.session.sessions as any[];
  assert.equal(r.sessions.length, theirs.length);
  for (const s of r.sessions) {
    const c = theirs.find((x) => x.sessionId === CLAUDE_PROJECT[s.sessionId])!;
    const gap = GAP.sessions.get(c.sessionId) ?? none;
    assert.deepEqual([s.usage.input, s.usage.output, s.usage.cacheWrite, s.usage.cachedInput], [c.inputTokens, c.outputTokens + gap.output, c.cacheCreationTokens, c.cacheReadTokens], c.sessionId);
    if (UNPRICED.has(c.sessionId)) {
      assert.equal(c.totalCost, 0, 'ccusage prices an unknown model at 0');
      assert.equal(s.costUSD, null, 'we say unknown');
    } else close(s.costUSD, c.totalCost + gap.usd, c.sessionId);
  }
  const days = CCUSAGE.claude.daily.daily as any[];
  assert.deepEqual(r.days.map((d) => d.day), days.map((d) => d.date));
  for (const d of r.days) {
    const c = days.find((x) => x.date === d.day)!;
    const gap = GAP.days.get(d.day) ?? none;
    assert.deepEqual([d.usage.input, d.usage.output, d.usage.cacheWrite, d.usage.cachedInput], [c.inputTokens, c.outputTokens + gap.output, c.cacheCreationTokens, c.cacheReadTokens], d.day);
    if (c.totalCost === 0) assert.equal(d.costUSD, null, d.day);
    else close(d.costUSD, c.totalCost + gap.usd, d.day);
  }
  assert.equal(r.total.costUSD, null, 'a total with an unpriced request is unknown');
  assert.deepEqual(r.pricing.unpriced, [{ model: 'claude-opus-5-5', requests: 1 }]);
  // Without the unpriced session the total is ccusage's total less nothing (it priced that one at 0), plus the gap.
  const priced = await report({ runtime: 'claude', until: '2026-11-30' });
  close(priced.total.costUSD, CCUSAGE.claude.session.totals.totalCost + GAP.total.usd, 'total through 2026-11-30');
});

test('Codex: cost and tokens per session and per UTC day equal @ccusage/codex 18.0.11 (cached input at the cached price, off the input)', async () => {
  const r = await report({ runtime: 'codex' });
  const theirs = CCUSAGE.codex.session.sessions as any[];
  assert.equal(r.sessions.length, theirs.length);
  for (const s of r.sessions) {
    const c = theirs.find((x) => String(x.sessionId).endsWith(s.sessionId))!;
    // @ccusage/codex's input includes the cached part; ours keeps it apart.
    assert.deepEqual([s.usage.input + s.usage.cachedInput + s.usage.cacheWrite, s.usage.cachedInput, s.usage.output], [c.inputTokens, c.cachedInputTokens, c.outputTokens], c.sessionId);
    if (UNPRICED.has(s.sessionId)) assert.deepEqual([c.costUSD, s.costUSD], [0, null]);
    else close(s.costUSD, c.costUSD, c.sessionId);
  }
  const days = CCUSAGE.codex.daily.daily as any[];
  for (const d of r.days) {
    const c = days.find((x) => new Date(`${x.date} UTC`).toISOString().slice(0, 10) === d.day)!;
    if (c.costUSD === 0) assert.equal(d.costUSD, null, d.day);
    else close(d.costUSD, c.costUSD, d.day);
  }
  assert.deepEqual(r.pricing.unpriced, [{ model: 'gpt-6.1-sol', requests: 1 }]);
});

test('prices: exact name, provider prefix, date suffix; no substring guess; tiers over 200k; fast mode; a recorded cost wins', () => {
  assert.match(PRICES.source, /LiteLLM/);
  assert.equal(priceOf('claude-sonnet-4-5-20250929'), PRICES.anthropic['claude-sonnet-4-5-20250929']);
  assert.equal(priceOf('anthropic/claude-haiku-4-5'), PRICES.anthropic['claude-haiku-4-5']);
  assert.equal(priceOf('openai/gpt-5.1-codex'), PRICES.openai['gpt-5.1-codex']);
  assert.equal(priceOf('claude-opus-4-7-20991231'), PRICES.anthropic['claude-opus-4-7'], 'a dated snapshot of a priced model');
  for (const unknown of ['gpt-5.5', 'claude-opus-5-5', 'capture', 'claude', '', undefined]) assert.equal(priceOf(unknown), null, String(unknown));
  const u = { input: 0, cachedInput: 0, cacheWrite: 300_000, output: 0 };
  // 200k at $3.75/M and 100k at $7.50/M (LiteLLM's above-200k price for Sonnet 4.5).
  assert.ok(Math.abs(requestCost('claude', u, 'claude-sonnet-4-5')! - (0.75 + 0.75)) < 1e-9);
  assert.ok(Math.abs(requestCost('claude', u, 'claude-sonnet-4-6')! - 300_000 * 3.75e-6) < 1e-9, 'no tier where LiteLLM has none');
  const one = { input: 1_000_000, cachedInput: 0, cacheWrite: 0, output: 0 };
  assert.ok(Math.abs(requestCost('claude', one, 'claude-opus-4-7', { speed: 'fast' })! - 30) < 1e-9, 'fast mode ×6');
  assert.equal(requestCost('claude', one, 'capture', { costUSD: 0.25 }), 0.25);
  assert.equal(requestCost('claude', one, 'capture'), null);
  // gpt-5-pro has no cached price: @ccusage/codex prices cached input at the input price.
  assert.ok(Math.abs(requestCost('codex', { input: 0, cachedInput: 1_000_000, cacheWrite: 0, output: 0 }, 'gpt-5-pro')! - 15) < 1e-9);
});

test('--until DATE includes that UTC day and is checked like --since; --since after --until is refused', async () => {
  assert.equal(parseUntil('2026-11-29'), Date.UTC(2026, 10, 30));
  assert.equal(parseUntil('20261129'), Date.UTC(2026, 10, 30));
  for (const bad of ['2026-02-30', 'tomorrow', '2026-11']) assert.throws(() => parseUntil(bad), (e: unknown) => e instanceof CliError && e.exitCode === 2 && /--until/.test(e.message), bad);
  await assert.rejects(report({ since: '2026-12-01', until: '2026-11-30' }), (e: unknown) => e instanceof CliError && e.exitCode === 2);
  const r = await report({ until: '2026-11-29' });
  assert.deepEqual(r.days.map((d) => d.day), ['2026-11-29']);
  const nov29 = [CCUSAGE.claude.daily.daily[0].totalCost, CCUSAGE.codex.daily.daily[0].costUSD] as number[];
  close(r.total.costUSD, nov29[0]! + (GAP.days.get('2026-11-29') ?? none).usd + nov29[1]!, 'both runtimes through 2026-11-29');
  const window = await report({ since: '2026-11-30', until: '2026-11-30' });
  assert.deepEqual(window.days.map((d) => d.day), ['2026-11-30']);
});
