// Owns the token bench's knowledge and memory rows: what kb_search, kb_fetch and memory_search results cost a model
// on realistic fixtures (a team's docs folder, an agent's dated notes), through the daemon's tool handler with a Human turn.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySearch } from '../src/memorysearch/service.js';
import { ageCounters } from './aged-ids.js';
import { startTestServer } from '../src/domains/test-server.js';
import { systemClock } from '../src/shared/clock.js';
import { createAgentteamHandler } from '../src/tools/agentteam/handler.js';
import { testToolDeps, tokenInfo } from '../src/tools/agentteam/testkit.js';

/** One token-bench row: the text the model reads, its item count and the tokens of the content it came for. */
export interface TokenRow {
  what: string;
  text: string;
  items: number;
  content: number;
  list?: string;
}

/** A team's docs: short Markdown pages with a few sections each, the kind a `kb add-source docs/` indexes. */
const DOCS: Record<string, string> = {
  'deploy.md': '# Deploying\n\n## Staging\nPush to main; CI deploys staging in about ten minutes. Check the health page before you announce it.\n\n## Production\nTag a release (vX.Y.Z). The deploy job waits for one approval in #releases, then rolls out region by region.\n\n## Rollback\nRun the deploy job with the previous tag. Database migrations are forward-only: write a fix-forward migration.\n',
  'oncall.md': '# On-call\n\n## Paging\nThe pager rotates weekly on Mondays. Acknowledge within 15 minutes; escalate to the team lead after 30.\n\n## Runbooks\nEach alert links its runbook. A deploy that pages twice is rolled back first and debugged second.\n',
  'release.md': '# Releases\n\n## Notes\nRelease notes list user-visible changes, newest first, one line each, with the PR number.\n\n## Schedule\nWe release on Tuesdays. A release that misses the window waits a week unless it fixes an outage.\n\n## Deploy checklist\nGreen CI, notes written, migration reviewed, the deploy approved in #releases.\n',
  'style.md': '# Code style\n\n## Tests\nEvery bug fix comes with a test that failed before it. No sleeps in unit tests.\n\n## Reviews\nSmall PRs, one change each. Approve only what you ran.\n',
};

/** An agent's own memory: dated notes, a few lines per topic. */
const NOTES: Record<string, string> = {
  'people/ana.md': '# Ana\n\n- 2026-11-02: owns billing and the invoice export\n- 2026-11-20: prefers PR reviews in the morning\n',
  'people/bo.md': '# Bo\n\n- 2026-10-14: on-call lead this quarter\n- 2026-11-28: asked for deploy notes in #releases\n',
  'projects/deploy.md': '# Deploy pipeline\n\n- 2026-11-05: staging deploy takes ten minutes\n- 2026-11-19: production deploy needs an approval in #releases\n\n## Open questions\n\n- 2026-11-30: who approves deploys on holidays?\n',
  'projects/release.md': '# Release 0.2\n\n- 2026-11-25: notes drafted, waiting on the pager fix\n- 2026-11-29: deploy moved to Tuesday\n',
  'howto/rollback.md': '# Rollback\n\n- 2026-11-12: redeploy the previous tag; migrations only go forward\n',
  'log/2026-11.md': '# November\n\n- 2026-11-03: set up the deploy dashboard\n- 2026-11-17: paired with Ana on the invoice bug\n- 2026-11-26: wrote the deploy checklist\n',
};

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** kb_search (5 hits), kb_fetch (one document's sections) and memory_search (5 locators), as the model reads them. */
export async function knowledgeRows(tok: (s: string) => number): Promise<TokenRow[]> {
  const home = mkdtempSync(join(tmpdir(), 'bench-tokens-kb-'));
  const t = await startTestServer();
  await ageCounters((sql, params) => t.runSql(sql, params));
  const memory = new MemorySearch({ memoryRoot: join(home, 'memory'), indexRoot: join(home, 'memory-index'), clock: systemClock });
  try {
    const a = await t.owner.members.createAgent({ name: 'builder' });
    await t.owner.channels.addMember({ channelId: 'general', memberId: a.agent.id });
    const msg = await t.owner.messages.send({ target: 'channel:general', content: 'how do we deploy?' });
    const src = await t.owner.knowledge.createSource({ name: 'docs', kind: 'upload', scopes: ['channel:general'] });
    for (const [path, content] of Object.entries(DOCS)) await t.owner.knowledge.putDocument({ sourceId: src.id, path, hash: sha(content), mtime: 1, content });
    await t.owner.knowledge.markSynced({ sourceId: src.id });

    const agentId = a.agent.id;
    const dir = memory.dir(agentId);
    memory.ensure(agentId);
    for (const [rel, text] of Object.entries(NOTES)) {
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    await memory.index(agentId).scan();

    const h = createAgentteamHandler({ ...testToolDeps(home), memory });
    const turn = { turnId: 'trn_bench', serverId: t.server.serverId, target: 'channel:general', targetType: 'channel' as const, messageId: msg.id, authorKind: 'human' as const };
    const ctx = { info: tokenInfo(t.server.serverId, agentId, home), signal: new AbortController().signal, api: t.client.as(a.credential), turn };
    const call = async (name: string, args: Record<string, unknown>) => {
      const res = await h.callTool(ctx, agentId, name, args);
      if (res.isError) throw new Error(`${name} failed: ${res.content[0]?.text.slice(0, 300)}`);
      return { text: res.content[0]!.text, data: res.structuredContent as Record<string, any> };
    };

    const search = await call('kb_search', { query: 'deploy', limit: 5 });
    const hits = search.data.hits as Array<{ documentId: string; title?: string; heading?: string; snippet: string }>;
    const fetched = await call('kb_fetch', { documentId: hits[0]!.documentId });
    const sections = fetched.data.sections as Array<{ heading?: string; text: string }>;
    const mem = await call('memory_search', { query: 'deploy', limit: 5 });
    const locators = mem.data.hits as Array<{ snippet: string }>;
    // Content: what the reader came for (titles, headings, snippets, section text); ids, paths, lines and keys are overhead.
    const words = (...xs: Array<string | undefined>) => xs.reduce((s, x) => s + (x ? tok(x) : 0), 0);
    return [
      { what: `MCP kb_search (${hits.length} hits)`, text: search.text, items: hits.length, content: hits.reduce((s, x) => s + words(x.title, x.heading, x.snippet), 0), list: 'hits' },
      { what: `MCP kb_fetch (${sections.length} sections)`, text: fetched.text, items: sections.length, content: sections.reduce((s, x) => s + words(x.heading, x.text), 0), list: 'sections' },
      { what: `MCP memory_search (${locators.length} locators)`, text: mem.text, items: locators.length, content: locators.reduce((s, x) => s + words(x.snippet), 0), list: 'hits' },
    ];
  } finally {
    memory.close();
    await t.stop();
    rmSync(home, { recursive: true, force: true });
  }
}
