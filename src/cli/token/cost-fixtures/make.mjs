// Writes the cost fixtures (Claude Code and Codex transcripts in the runtimes' line formats) whose costs ccusage-18.0.11.json records; run once: node make.mjs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const write = (rel, lines) => {
  const p = join(here, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
};

// Claude Code 2.1: one line per content block of a response (same message.id + requestId), usage on each.
function claude(sessionId, cwd, steps) {
  const lines = [];
  let parent = null;
  steps.forEach((s, i) => {
    const uuid = `${sessionId.slice(0, 8)}-0000-4000-8000-${String(i).padStart(12, '0')}`;
    if (s.user) {
      lines.push({ parentUuid: parent, isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.39', gitBranch: 'main', type: 'user', message: { role: 'user', content: s.user }, uuid, timestamp: s.at });
      parent = uuid;
      return;
    }
    // Claude Code 2.1 writes a line per content block, all with the same message.id + requestId: the usage repeats but
    // output_tokens grows, and only the last line has the final count. `snapshots`: the output on the earlier lines.
    const outputs = [...(s.snapshots ?? []), s.output];
    outputs.forEach((output, n) => {
      const usage = { input_tokens: s.input, cache_creation_input_tokens: s.write ?? 0, cache_read_input_tokens: s.read ?? 0, output_tokens: output, service_tier: 'standard', ...(s.speed ? { speed: s.speed } : {}) };
      const last = n === outputs.length - 1;
      const content = [last ? { type: 'text', text: s.text ?? 'Done.' } : { type: 'thinking', thinking: 'Reading.', signature: 'sig' }];
      const message = { id: `msg_${sessionId.slice(0, 4)}${i}`, type: 'message', role: 'assistant', model: s.model, content, stop_reason: last ? 'end_turn' : null, stop_sequence: null, usage };
      const id = last ? uuid : `${uuid.slice(0, -1)}${'abcdef'[n]}`;
      lines.push({ parentUuid: parent, isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.39', gitBranch: 'main', message, requestId: `req_${sessionId.slice(0, 4)}${i}`, type: 'assistant', uuid: id, timestamp: s.at, ...(s.costUSD !== undefined ? { costUSD: s.costUSD } : {}) });
      parent = id;
    });
  });
  return lines;
}

write('claude/projects/-work-sonnet/7d1c6a52-0c2f-4a39-9d0e-0f3a8c1b2e01.jsonl', claude('7d1c6a52-0c2f-4a39-9d0e-0f3a8c1b2e01', '/work/pricing', [
  { user: 'Summarise the repository.', at: '2026-11-29T23:49:58.000Z' },
  { model: 'claude-sonnet-4-5-20250929', input: 3, write: 12_000, output: 250, snapshots: [2], at: '2026-11-29T23:50:01.120Z' },
  // Over 200k cache writes and then cache reads in one request: the tokens above 200k at the dearer LiteLLM price.
  { model: 'claude-sonnet-4-5-20250929', input: 5, write: 230_000, read: 12_000, output: 900, at: '2026-11-30T00:10:00.500Z' },
  { model: 'claude-sonnet-4-5-20250929', input: 2, write: 1_500, read: 242_000, output: 120, at: '2026-11-30T00:11:30.000Z' },
  // A line that carries its own cost (older Claude Code): ccusage's auto mode takes it as is.
  { model: 'claude-opus-4-1', input: 10, write: 2_000, read: 20_000, output: 400, costUSD: 0.5, at: '2026-11-30T00:12:00.000Z' },
  { model: '<synthetic>', input: 0, output: 0, at: '2026-11-30T00:12:01.000Z' },
]));
write('claude/projects/-work-opus/4b0e9f1a-5a77-4c7e-b1d5-7d2f4c9e8a02.jsonl', claude('4b0e9f1a-5a77-4c7e-b1d5-7d2f4c9e8a02', '/work/pricing', [
  { user: 'Fix the test.', at: '2026-11-30T09:00:00.000Z' },
  { model: 'claude-opus-4-7', input: 6, write: 8_000, read: 30_000, output: 700, snapshots: [1, 1], at: '2026-11-30T09:00:05.000Z' },
  // Fast mode: LiteLLM's provider_specific_entry.fast multiplies the cost (6× for Opus 4.7).
  { model: 'claude-opus-4-7', input: 4, write: 500, read: 38_000, output: 300, speed: 'fast', at: '2026-11-30T09:01:00.000Z' },
  { model: 'claude-haiku-4-5-20251001', input: 1_200, output: 80, at: '2026-11-30T09:01:10.000Z' },
  { model: 'anthropic/claude-haiku-4-5', input: 900, write: 300, output: 60, at: '2026-11-30T09:01:20.000Z' },
]));
// A model the table has no price for: ccusage prices it at 0, AgentTeam reports the cost as unknown.
write('claude/projects/-work-unpriced/c3f1e2d4-9b8a-4c6d-a5e7-1f2b3c4d5e03.jsonl', claude('c3f1e2d4-9b8a-4c6d-a5e7-1f2b3c4d5e03', '/work/pricing', [
  { user: 'Hello.', at: '2026-12-01T10:00:00.000Z' },
  { model: 'claude-opus-5-5', input: 3, write: 9_000, output: 40, at: '2026-12-01T10:00:02.000Z' },
]));

// Codex rollouts: session_meta, turn_context (the model), token_count events with cumulative totals.
function codex(id, steps) {
  const lines = [{ timestamp: steps[0].at, type: 'session_meta', payload: { id, session_id: id, timestamp: steps[0].at, cwd: '/work/pricing', originator: 'codex_cli_rs', cli_version: '0.169.0', model_provider: 'openai' } }];
  const total = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
  for (const s of steps) {
    if (s.model) {
      lines.push({ timestamp: s.at, type: 'turn_context', payload: { cwd: '/work/pricing', approval_policy: 'on-request', model: s.model, effort: 'medium', summary: 'auto' } });
      continue;
    }
    const last = { input_tokens: s.input, cached_input_tokens: s.cached, output_tokens: s.output, reasoning_output_tokens: s.reasoning ?? 0, total_tokens: s.input + s.output };
    for (const k of Object.keys(total)) total[k] += last[k];
    lines.push({ timestamp: s.at, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { ...total }, last_token_usage: last, model_context_window: 258_400 }, rate_limits: null } });
  }
  return lines;
}
write('codex/sessions/2026/11/29/rollout-2026-11-29T23-55-00-019ac1d0-1111-7a2b-8c3d-4e5f6a7b8c01.jsonl', codex('019ac1d0-1111-7a2b-8c3d-4e5f6a7b8c01', [
  { model: 'gpt-5.1-codex', at: '2026-11-29T23:55:00.000Z' },
  { input: 14_000, cached: 0, output: 600, reasoning: 200, at: '2026-11-29T23:55:10.000Z' },
  { input: 21_000, cached: 13_800, output: 450, at: '2026-11-30T00:02:00.000Z' },
]));
write('codex/sessions/2026/11/30/rollout-2026-11-30T08-00-00-019ac1d0-2222-7a2b-8c3d-4e5f6a7b8c02.jsonl', codex('019ac1d0-2222-7a2b-8c3d-4e5f6a7b8c02', [
  { model: 'gpt-5', at: '2026-11-30T08:00:00.000Z' },
  { input: 30_000, cached: 24_000, output: 1_500, at: '2026-11-30T08:00:20.000Z' },
  { model: 'gpt-5-mini', at: '2026-11-30T08:05:00.000Z' },
  { input: 32_000, cached: 30_000, output: 800, at: '2026-11-30T08:05:20.000Z' },
]));
write('codex/sessions/2026/12/01/rollout-2026-12-01T11-00-00-019ac1d0-3333-7a2b-8c3d-4e5f6a7b8c03.jsonl', codex('019ac1d0-3333-7a2b-8c3d-4e5f6a7b8c03', [
  { model: 'gpt-6.1-sol', at: '2026-12-01T11:00:00.000Z' },
  { input: 9_000, cached: 0, output: 120, at: '2026-12-01T11:00:05.000Z' },
]));
