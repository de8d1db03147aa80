// Tests memory_search through the composite handler: own clone only, locator results, classified index_unavailable, bad input.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { MemorySearch } from '../../memorysearch/service.js';
import type { ServerApi } from '../../server-client/api.js';
import { FakeClock } from '../../shared/clock.js';
import type { ToolContext } from '../../wire/mcp/handler.js';
import { createAgentteamHandler } from './handler.js';
import { structured, tokenInfo } from './testkit.js';

const home = mkdtempSync(join(tmpdir(), 'memtool-'));
const memory = new MemorySearch({ memoryRoot: join(home, 'memory'), indexRoot: join(home, 'memory-index'), clock: new FakeClock(), watch: false });
const h = createAgentteamHandler({ memory });
after(() => {
  memory.close();
  rmSync(home, { recursive: true, force: true });
});

/** memory_search never calls the server, so the context's server API is an empty object. */
function ctx(agentId: string): ToolContext {
  return { info: tokenInfo('srv', agentId, home), signal: new AbortController().signal, api: {} as ServerApi };
}

async function ready(agentId: string): Promise<void> {
  memory.ensure(agentId);
  await memory.index(agentId).scan();
}

test('an agent finds its own memory, with locators only', async () => {
  const dir = memory.ensure('agt_a').dir;
  writeFileSync(join(dir, 'billing.md'), '# Billing\n\n- 2026-03-01: Ana owns the invoice service\n');
  await ready('agt_a');
  const r = await h.callTool(ctx('agt_a'), 'agt_a', 'memory_search', { query: 'invoice' });
  assert.equal(r.isError, undefined);
  const s = structured(r);
  assert.deepEqual(Object.keys(s), ['hits']);
  assert.equal(s.hits.length, 1);
  assert.deepEqual(Object.keys(s.hits[0]), ['path', 'lines', 'score', 'snippet']);
  assert.equal(s.hits[0].path, 'billing.md');
  assert.equal(s.hits[0].lines, '1-3');
  assert.equal(typeof s.hits[0].score, 'number');
});

test('hits are best first with a score to two significant digits', async () => {
  const dir = memory.ensure('agt_s').dir;
  writeFileSync(join(dir, 'deploy.md'), '# Deploy\n\n- deploy staging, then deploy production; a deploy needs approval\n');
  writeFileSync(join(dir, 'log.md'), '# Log\n\n- 2026-11-03: wrote about the deploy dashboard and many other unrelated things today\n');
  for (const n of ['a', 'b', 'c', 'd']) writeFileSync(join(dir, `${n}.md`), `# ${n}\n\n- nothing about that here\n`);
  await ready('agt_s');
  const s = structured(await h.callTool(ctx('agt_s'), 'agt_s', 'memory_search', { query: 'deploy' }));
  assert.deepEqual(s.hits.map((x: { path: string }) => x.path), ['deploy.md', 'log.md']);
  const [a, b] = s.hits.map((x: { score: number }) => x.score);
  assert.ok(a > b && b > 0, `scores ${a}, ${b}`);
  for (const x of [a, b]) assert.equal(x, Number(x.toPrecision(2)));
});

test("an agent can never search another agent's memory, whatever the route agent id says", async () => {
  const b = memory.ensure('agt_b').dir;
  writeFileSync(join(b, 'private.md'), 'the launch code word is marmalade\n');
  await ready('agt_b');
  await ready('agt_a');
  // The token binds agt_a; even a mismatched route agent id searches agt_a's clone only.
  for (const routeAgent of ['agt_a', 'agt_b']) {
    const r = await h.callTool(ctx('agt_a'), routeAgent, 'memory_search', { query: 'marmalade' });
    assert.deepEqual(structured(r), { hits: [] });
  }
  const own = structured(await h.callTool(ctx('agt_b'), 'agt_b', 'memory_search', { query: 'marmalade' }));
  assert.equal(own.hits.length, 1);
});

test('a missing clone or a building index is the classified index_unavailable error naming the fallback', async () => {
  const missing = await h.callTool(ctx('agt_nobody'), 'agt_nobody', 'memory_search', { query: 'anything' });
  assert.equal(missing.isError, true);
  const m = structured(missing);
  assert.equal(m.code, 'index_unavailable');
  assert.match(m.hint, /search the folder directly/);
  assert.match(m.hint, /AGENTTEAM_MEMORY_DIR/);
  memory.ensure('agt_new'); // starts a build in the background; the call right after sees it building
  const building = structured(await h.callTool(ctx('agt_new'), 'agt_new', 'memory_search', { query: 'anything' }));
  assert.equal(building.code, 'index_unavailable');
  assert.match(building.message, /being built/);
  await memory.index('agt_new').scan();
  assert.deepEqual(structured(await h.callTool(ctx('agt_new'), 'agt_new', 'memory_search', { query: 'anything' })), { hits: [] });
  // Without a memory owner the tool is still listed and answers the same classified error.
  const bare = createAgentteamHandler();
  assert.ok(bare.tools().some((t) => t.name === 'memory_search'));
  assert.equal(structured(await bare.callTool(ctx('agt_a'), 'agt_a', 'memory_search', { query: 'x' })).code, 'index_unavailable');
});

test('bad arguments are invalid_input tool errors', async () => {
  await ready('agt_a');
  for (const args of [{}, { query: '' }, { query: 'x', limit: 0 }, { query: 'x', limit: 21 }, { query: 'x', extra: 1 }, { query: 'x'.repeat(513) }]) {
    const r = await h.callTool(ctx('agt_a'), 'agt_a', 'memory_search', args);
    assert.equal(r.isError, true, JSON.stringify(args).slice(0, 60));
    assert.equal(structured(r).code, 'invalid_input');
  }
  const words = structured(await h.callTool(ctx('agt_a'), 'agt_a', 'memory_search', { query: '*** ()' }));
  assert.equal(words.code, 'invalid_input');
});

test('memory_search is declared read-only with an output schema', () => {
  const def = h.tools().find((t) => t.name === 'memory_search')!;
  assert.equal(def.annotations.readOnlyHint, true);
  assert.ok(def.outputSchema);
});
