// Checks that a Claude Code response written as several lines (snapshots), in one file or several, is counted once from its final line.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readSources } from './analyze.js';
import type { SessionAccount, Usage } from './collector.js';
import { requestCost } from './pricing.js';
import { buildReport } from './report.js';
import { RECENT_RESPONSES } from './responses.js';
import { findSources } from './sources.js';
import { loadCounter, toolSurface } from './surface.js';

const count = await loadCounter();
const temps: string[] = [];
after(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));
function folder(files: Record<string, object[]>): string {
  const d = mkdtempSync(join(tmpdir(), 'agentteam-token-resp-'));
  temps.push(d);
  for (const [name, rows] of Object.entries(files)) writeFileSync(join(d, name), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return d;
}
async function read(dir: string, since?: number): Promise<Map<string, SessionAccount>> {
  const { accounts } = await readSources(await findSources([dir]), count, since);
  return new Map(accounts.map((a) => [a.sessionId, a]));
}

interface Snap {
  session?: string;
  id?: string;
  req?: string;
  at?: string;
  model?: string;
  u: Usage;
  block?: object;
}
/** One line of a Claude Code 2.1 response: one content block, the usage as it stood when that block was written. */
const line = (s: Snap) => ({
  type: 'assistant',
  sessionId: s.session ?? 's1',
  requestId: s.req ?? 'req_1',
  timestamp: s.at ?? '2026-11-02T10:00:00.000Z',
  message: {
    id: s.id ?? 'msg_1',
    model: s.model ?? 'claude-opus-4-6',
    content: [s.block ?? { type: 'text', text: 'x' }],
    usage: { input_tokens: s.u.input, cache_read_input_tokens: s.u.cachedInput, cache_creation_input_tokens: s.u.cacheWrite, output_tokens: s.u.output },
  },
});
const u = (output: number, cachedInput = 30_000, cacheWrite = 5_000, input = 3): Usage => ({ input, cachedInput, cacheWrite, output });
const usd = (x: Usage, model = 'claude-opus-4-6') => requestCost('claude', x, model)!;
const close = (a: number | null, b: number) => assert.ok(a !== null && Math.abs(a - b) < 1e-9, `${a} vs ${b}`);

test('a response written as three lines with output 1, 1, 260 counts 260 once: one request, its cost on 260, each block\'s tool call once, the surface once', async () => {
  const call = (id: string, what: string) => ({ type: 'tool_use', id, name: 'Bash', input: { command: `agentteam exec ${what}` } });
  const dir = folder({
    's1.jsonl': [
      { type: 'user', sessionId: 's1', timestamp: '2026-11-02T09:59:59.000Z', message: { role: 'user', content: '## This turn\n\nYou are @demo. owner wrote' } },
      line({ u: u(1), block: { type: 'thinking', thinking: 'hmm' } }),
      line({ u: u(1), block: call('t1', 'task list') }),
      line({ u: u(260), block: call('t2', 'task --help') }),
      // A snapshot that repeats a call still waiting for its result (as a cumulative writer would) is not another call.
      line({ u: u(260), block: call('t1', 'task list') }),
      { type: 'user', sessionId: 's1', timestamp: '2026-11-02T10:00:02.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '[]' }, { type: 'tool_result', tool_use_id: 't2', content: 'Usage: agentteam exec task' }] } },
      line({ id: 'msg_2', req: 'req_2', u: u(40, 35_300, 20), at: '2026-11-02T10:00:03.000Z' }),
    ],
  });
  const a = (await read(dir)).get('s1')!;
  assert.equal(a.requests, 2);
  assert.deepEqual(a.usage, { input: 6, cachedInput: 65_300, cacheWrite: 5_020, output: 300 });
  close(a.cost.usd, usd(u(260)) + usd(u(40, 35_300, 20)));
  assert.deepEqual([...a.tools].map(([t, s]) => [t, s.calls, s.results]), [['exec task list', 1, 1], ['exec task --help', 1, 1]]);
  // The next request's context grew by the results over the first one's context plus its final output (260, not 1).
  const results = count('[]') + count('Usage: agentteam exec task');
  assert.deepEqual(a.calibration, { steps: 1, recorded: (3 + 35_300 + 20) - (3 + 30_000 + 5_000) - 260, o200k: results });
  const r = buildReport({ accounts: [a], daemon: new Map(), surface: toolSurface(count, ['claude']), sources: { files: 1, bytes: 1, skippedLines: 0 }, filter: {} });
  const s = r.sessions[0]!;
  assert.equal(s.surface.inContext, 2 * s.surface.perRequest, 'AgentTeam\'s share once per request, not per line');
  assert.equal(r.total.usage.output, 300);
  assert.deepEqual([r.days[0]!.usage.output, r.agents[0]!.usage.output], [300, 300]);
  close(r.total.costUSD, a.cost.usd);
  close(r.days[0]!.costUSD, a.cost.usd);
  close(r.agents[0]!.costUSD, a.cost.usd);
});

test('a tie goes to the later line, whole; a later line with less output changes nothing', async () => {
  const dir = folder({ 's1.jsonl': [line({ u: u(50, 100, 10) }), line({ u: u(50, 200, 20) }), line({ u: u(7, 999, 999) })] });
  const a = (await read(dir)).get('s1')!;
  assert.equal(a.requests, 1);
  assert.deepEqual(a.usage, u(50, 200, 20));
  close(a.cost.usd, usd(u(50, 200, 20)));
});

test('a mid-stream model fallback: the later snapshot (another model, other cache figures) is counted from that line alone, never a maximum per field', async () => {
  const dir = folder({
    's1.jsonl': [
      // An unpriced model first: the request is unknown until its later snapshot, from a priced model, replaces it.
      line({ model: 'claude-opus-5-5', u: u(5, 90_000, 8_000) }),
      line({ model: 'claude-sonnet-4-5', u: u(300, 1_000, 40_000, 9) }),
    ],
  });
  const a = (await read(dir)).get('s1')!;
  assert.equal(a.requests, 1);
  assert.deepEqual(a.usage, u(300, 1_000, 40_000, 9));
  assert.equal(a.model, 'claude-sonnet-4-5');
  assert.deepEqual([a.cost.unpriced, [...a.unpriced]], [0, []]);
  close(a.cost.usd, usd(u(300, 1_000, 40_000, 9), 'claude-sonnet-4-5'));
  close(a.dayCosts.get('2026-11-02')!.usd, a.cost.usd);
});

test('across two files (a resumed session written anew): counted once, in the session and day it was first counted in, from the final line', async () => {
  const dir = folder({
    'a.jsonl': [line({ session: 'a', u: u(1), at: '2026-11-02T23:59:59.000Z' }), line({ session: 'a', id: 'msg_2', req: 'req_2', u: u(90), at: '2026-11-02T23:59:59.500Z' })],
    // The copy holds the first response's final line (the next UTC day) and the second one's first snapshot again.
    'b.jsonl': [line({ session: 'b', u: u(400), at: '2026-11-03T00:00:01.000Z' }), line({ session: 'b', id: 'msg_2', req: 'req_2', u: u(2) }), line({ session: 'b', id: 'msg_3', req: 'req_3', u: u(10) })],
  });
  const m = await read(dir);
  const a = m.get('a')!;
  const b = m.get('b')!;
  assert.deepEqual([a.requests, a.usage.output], [2, 490]);
  assert.deepEqual([...a.days].map(([d, x]) => [d, x.output]), [['2026-11-02', 490]]);
  close(a.cost.usd, usd(u(400)) + usd(u(90)));
  assert.deepEqual([b.requests, b.usage.output, b.days.has('2026-11-03')], [1, 10, false]);
});

test('a response first seen before --since stays out, whatever its later lines say; a response older than the window is not counted again', async () => {
  const since = Date.UTC(2026, 10, 3);
  const early = folder({ 's1.jsonl': [line({ u: u(1), at: '2026-11-02T23:59:59.000Z' }), line({ u: u(500), at: '2026-11-03T00:00:01.000Z' })] });
  assert.equal((await read(early, since)).get('s1')?.requests ?? 0, 0);
  const rows = Array.from({ length: RECENT_RESPONSES + 1 }, (_, i) => line({ id: `msg_${i}`, req: `req_${i}`, u: u(1, 0, 0) }));
  const old = folder({ 's1.jsonl': [...rows, line({ id: 'msg_0', req: 'req_0', u: u(9, 0, 0) })] });
  const a = (await read(old)).get('s1')!;
  assert.deepEqual([a.requests, a.usage.output], [RECENT_RESPONSES + 1, RECENT_RESPONSES + 1]);
});
