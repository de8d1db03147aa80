// Checks classification of AgentTeam calls, the tool-surface cost against the live inventory, and the report's totals and suggestions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderRootHelp } from '../../catalog/index.js';
import { classifyCommand, classifyToolName, INVENTORY, SessionAccount } from './collector.js';
import { createAgentteamHandler } from '../../tools/agentteam/handler.js';
import { buildReport, RESULT_BUDGET_TOKENS } from './report.js';
import { renderReport } from './render.js';
import { loadCounter, toolSurface } from './surface.js';
import { builtinCatalog } from '../../domains/registry.js';

const count = await loadCounter();
const surface = toolSurface(count, ['claude', 'codex', 'opencode']);

test('every runtime naming of our tools and every way a shell runs agentteam exec is recognised; other tools and commands are not', () => {
  assert.deepEqual([...INVENTORY].sort(), createAgentteamHandler().tools().map((t) => t.name).sort(), 'the recognised inventory is the live one');
  for (const n of ['mcp__agentteam__kb_fetch', 'agentteam__kb_fetch', 'agentteam_kb_fetch', 'mcp_agentteam_kb_fetch']) assert.deepEqual(classifyToolName(n), { tool: 'kb_fetch', help: false }, n);
  for (const n of ['mcp__agentteam__rm_rf', 'Bash', 'mcp__other__kb_fetch', 'agentteam__']) assert.equal(classifyToolName(n), null, n);
  assert.deepEqual(classifyCommand('agentteam exec task --help'), { tool: 'exec task --help', help: true });
  assert.deepEqual(classifyCommand('agentteam exec --help'), { tool: 'exec --help', help: true });
  assert.deepEqual(classifyCommand('agentteam exec'), { tool: 'exec --help', help: true });
  assert.deepEqual(classifyCommand('agentteam exec task create -h'), { tool: 'exec task create --help', help: true });
  assert.deepEqual(classifyCommand('agentteam exec task create --input-schema'), { tool: 'exec task create --input-schema', help: true });
  assert.deepEqual(classifyCommand('cd /w && /opt/at/bin/agentteam exec task create \'{"title":"x"}\''), { tool: 'exec task create', help: false });
  assert.deepEqual(classifyCommand('echo \'{}\' | agentteam exec task get -'), { tool: 'exec task get', help: false });
  assert.deepEqual(classifyCommand('agentteam exec review add --help'), { tool: 'exec review add --help', help: true });
  for (const c of ['myagentteam exec task list', 'agentteam daemon status', 'ls -la']) assert.equal(classifyCommand(c), null, c);
});

test('the surface is computed from the live inventory and catalog in each runtime naming', () => {
  assert.equal(surface.tokenizer, 'o200k_base (gpt-tokenizer 4.0.0)');
  const catalog = builtinCatalog();
  assert.equal(surface.help['exec --help'], count(renderRootHelp(catalog)));
  assert.equal(Object.keys(surface.help).length, 1 + catalog.domains().length + catalog.actions.length);
  for (const r of surface.runtimes) {
    // The README's measured budget of the inventory (1,200 o200k for tools/list) bounds each naming within a few tokens a tool.
    // Codex's turn gets the compact dynamic-tool form (no output schema, annotations or title): about half.
    const [lo, hi] = r.runtime === 'codex' ? [400, 800] : [1000, 1300];
    assert.ok(r.toolsList > lo && r.toolsList < hi, `${r.runtime} tools ${r.toolsList}`);
    assert.ok(r.stable > surface.dispatcherSummary, 'the stable prompt holds the dispatcher summary');
  }
});

function account(id: string, fill: (a: SessionAccount) => void): SessionAccount {
  const a = new SessionAccount('claude', id, count, undefined);
  fill(a);
  return a;
}

test('the report totals per session and overall, attributes the surface per request, and suggests from the figures', () => {
  const big = 'x '.repeat(RESULT_BUDGET_TOKENS);
  const help = 'Usage: agentteam exec task <action>';
  const results = 3 * count(help) + count(big);
  const ours = account('s-ours', (a) => {
    a.userText('## This turn\n\nYou are @demo. owner (human) wrote in `channel:general`');
    a.request('2026-11-02T10:00:00Z', { input: 100, cachedInput: 0, cacheWrite: 900, output: 10 });
    for (const id of ['h1', 'h2', 'h3']) {
      a.toolCall(id, 'Bash', { command: 'agentteam exec task --help' });
      a.toolResult(id, help, false);
    }
    a.toolCall('k', 'mcp__agentteam__kb_fetch', {});
    a.toolResult('k', big, false);
    // The model saw the results as `results` tokens plus 17 of framing.
    a.request('2026-11-02T10:01:00Z', { input: 5, cachedInput: 1000, cacheWrite: results + 22, output: 20 });
    a.request('2026-11-03T09:00:00Z', { input: 5, cachedInput: 1000, cacheWrite: 0, output: 20 });
  });
  const other = account('s-other', (a) => a.request('2026-11-02T10:00:00Z', { input: 1, cachedInput: 0, cacheWrite: 0, output: 1 }));
  const byDaemon = account('s-daemon', (a) => a.request('2026-11-02T11:00:00Z', { input: 7, cachedInput: 0, cacheWrite: 0, output: 1 }));
  const daemon = new Map([['s-daemon', { agentId: 'agt12', agentName: 'writer', runtime: 'claude', target: 'dm:dm11' }]]);
  const sources = { files: 1, bytes: 1, skippedLines: 0 };
  const r = buildReport({ accounts: [ours, other, byDaemon], daemon, surface, sources, filter: {} });
  assert.equal(r.otherSessions, 1, 'a session AgentTeam did not launch is left out');
  assert.deepEqual(r.sessions.map((s) => s.agent).sort(), ['demo', 'writer']);
  assert.deepEqual(r.total.usage, { input: 117, cachedInput: 2000, cacheWrite: 922 + results, output: 51, total: 3090 + results });
  assert.deepEqual(r.days.map((d) => [d.day, d.usage.total]), [['2026-11-02', 2065 + results], ['2026-11-03', 1025]]);
  const s = r.sessions.find((x) => x.agent === 'demo')!;
  const claude = surface.runtimes.find((x) => x.runtime === 'claude')!;
  assert.equal(s.surface.perRequest, claude.stable + claude.toolsList);
  assert.equal(s.surface.inContext, 3 * s.surface.perRequest);
  assert.equal(r.largest[0]!.tool, 'kb_fetch');
  assert.ok(r.suggestions.some((x) => x.startsWith('kb_fetch: a result reached')), r.suggestions.join('\n'));
  assert.ok(r.suggestions.some((x) => x.includes('`agentteam exec task --help` 3×')), r.suggestions.join('\n'));
  // One step had only AgentTeam results (help ×3, kb_fetch): its growth over the previous context and output is the check.
  assert.deepEqual(r.tokenizerCheck.find((c) => c.runtime === 'claude'), { runtime: 'claude', steps: 1, recorded: results + 17, o200k: results, ratio: Math.round(((results + 17) / results) * 1000) / 1000 });
  assert.deepEqual(
    r.agents.map((a) => [a.agent, a.sessions, a.requests, a.surfaceInContext, a.resultTokens, a.calls]),
    [['demo', 1, 3, s.surface.inContext, s.results.tokens, 4], ['writer', 1, 1, r.sessions.find((x) => x.agent === 'writer')!.surface.inContext, 0, 0]],
  );
  const only = buildReport({ accounts: [ours, other, byDaemon], daemon, surface, sources, filter: { agent: 'agt12' } });
  assert.deepEqual(only.sessions.map((x) => x.sessionId), ['s-daemon']);
  assert.equal(buildReport({ accounts: [ours, other], daemon, surface, sources, filter: { all: true } }).sessions.length, 2);
  const text = renderReport(r);
  assert.match(text, /^TOTAL +4 +117 +2,000 /m, text);
  assert.match(text, /kb_fetch/);
});
