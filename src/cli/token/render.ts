// Owns the token report as terminal text: the surface per runtime, agents, sessions, days, tools, largest results, suggestions.
import { renderTable, terminalText } from '../output.js';
import type { Usage } from './collector.js';
import type { Report } from './report.js';

const n = (x: number) => x.toLocaleString('en-US');
/** USD, or — when a model had no price. */
const usd = (x: number | null) => (x === null ? '—' : `$${x.toFixed(x >= 100 ? 0 : x >= 1 ? 2 : 4)}`);

/** The report as terminal text. */
export function renderReport(r: Report): string {
  const parts: string[] = [];
  parts.push(`AgentTeam tool surface (${r.tokenizer}; dispatcher summary ${n(r.surface.dispatcherSummary)}, exec --help ${n(r.surface.help.root)}, ${r.surface.help.count} help pages)\n`);
  parts.push(
    renderTable(r.surface.runtimes, [
      { header: 'runtime', value: (x) => x.runtime },
      { header: 'tools', value: (x) => n(x.toolsList) },
      { header: 'skill doc', value: (x) => n(x.skillDoc) },
      { header: 'stable prompt', value: (x) => n(x.stable) },
      { header: 'turn prompt', value: (x) => n(x.turnOverhead) },
    ]),
  );
  if (r.agents.length) {
    parts.push('\nAgents (surface: AgentTeam instructions and tools in front of the model, summed over requests)\n');
    parts.push(renderTable(r.agents, [
      { header: 'agent', value: (a) => a.agent },
      { header: 'sessions', value: (a) => n(a.sessions) },
      { header: 'req', value: (a) => n(a.requests) },
      { header: 'total', value: (a) => n(a.usage.total) },
      { header: 'cost', value: (a) => usd(a.costUSD) },
      { header: 'surface', value: (a) => n(a.surfaceInContext) },
      { header: 'of input', value: (a) => `${a.usage.total > a.usage.output ? Math.round((a.surfaceInContext / (a.usage.total - a.usage.output)) * 100) : 0}%` },
      { header: 'results', value: (a) => n(a.resultTokens) },
      { header: 'per call', value: (a) => (a.calls ? n(Math.round(a.resultTokens / a.calls)) : '-') },
    ]));
  }
  parts.push(`\nSessions (${r.total.sessions}; ${r.otherSessions} other sessions left out)\n`);
  type Row = { agent: string; runtime: string; label: string; day: string; requests: number; usage: Usage; cost: number | null; inContext: number; results: number };
  const rows: Row[] = r.sessions.map((s) => ({ agent: s.agent ?? '-', runtime: s.runtime, label: s.sessionId.slice(0, 12), day: (s.lastAt ?? '').slice(0, 10), requests: s.requests, usage: s.usage, cost: s.costUSD, inContext: s.surface.inContext, results: s.results.tokens }));
  if (rows.length) {
    rows.push({ agent: 'TOTAL', runtime: '', label: '', day: '', requests: r.total.requests, usage: r.total.usage, cost: r.total.costUSD, inContext: r.total.surfaceInContext, results: r.total.resultTokens });
    parts.push(
      renderTable(rows, [
        { header: 'agent', value: (s) => s.agent },
        { header: 'runtime', value: (s) => s.runtime },
        { header: 'session', value: (s) => s.label },
        { header: 'day', value: (s) => s.day },
        { header: 'req', value: (s) => n(s.requests) },
        { header: 'input', value: (s) => n(s.usage.input) },
        { header: 'cached', value: (s) => n(s.usage.cachedInput) },
        { header: 'cache wr', value: (s) => n(s.usage.cacheWrite) },
        { header: 'output', value: (s) => n(s.usage.output) },
        { header: 'cost', value: (s) => usd(s.cost) },
        { header: 'surface', value: (s) => n(s.inContext) },
        { header: 'results', value: (s) => n(s.results) },
      ]),
    );
  }
  if (r.days.length) {
    parts.push('\nDays (UTC)\n');
    parts.push(renderTable(r.days, [
      { header: 'day', value: (d) => d.day },
      { header: 'input', value: (d) => n(d.usage.input) },
      { header: 'cached', value: (d) => n(d.usage.cachedInput) },
      { header: 'cache wr', value: (d) => n(d.usage.cacheWrite) },
      { header: 'output', value: (d) => n(d.usage.output) },
      { header: 'total', value: (d) => n(d.usage.total) },
      { header: 'cost', value: (d) => usd(d.costUSD) },
    ]));
  }
  if (r.total.tools.length) {
    parts.push('\nAgentTeam tools (result tokens, o200k)\n');
    parts.push(renderTable(r.total.tools, [
      { header: 'tool', value: (t) => t.tool },
      { header: 'calls', value: (t) => n(t.calls) },
      { header: 'tokens', value: (t) => n(t.resultTokens) },
      { header: 'per call', value: (t) => (t.results ? n(Math.round(t.resultTokens / t.results)) : '-') },
      { header: 'max', value: (t) => n(t.maxResultTokens) },
      { header: 'errors', value: (t) => n(t.errors) },
    ]));
  }
  if (r.largest.length) {
    parts.push('\nLargest results\n');
    parts.push(renderTable(r.largest.slice(0, 5), [
      { header: 'tokens', value: (l) => n(l.tokens) },
      { header: 'tool', value: (l) => l.tool },
      { header: 'agent', value: (l) => l.agent ?? l.sessionId.slice(0, 12) },
      { header: 'at', value: (l) => l.at ?? '-' },
    ]));
  }
  if (r.pricing.unpriced.length) {
    parts.push(`\nCost — (no price for the model; never guessed): ${r.pricing.unpriced.slice(0, 8).map((u) => `${terminalText(u.model, true).slice(0, 60)} ${n(u.requests)} req`).join(', ')}\n`);
  }
  const checked = r.tokenizerCheck.filter((c) => c.ratio !== null);
  if (checked.length) parts.push(`\nTokenizer check (recorded context growth / o200k of AgentTeam results): ${checked.map((c) => `${c.runtime} ${c.ratio}× over ${c.steps} steps`).join(', ')}\n`);
  parts.push(r.suggestions.length ? `\nSuggestions\n${r.suggestions.map((s) => `- ${terminalText(s, true)}`).join('\n')}\n` : '\nSuggestions: none\n');
  return parts.join('');
}
