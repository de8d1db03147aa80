// Static transport ownership (spec §Invariants, §Tool Ownership): Exec-owned domains are never MCP tools, and the reverse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAgentteamHandler } from '../src/tools/agentteam/handler.js';
import { testToolDeps } from '../src/tools/agentteam/testkit.js';
import { builtinCatalog } from '../src/domains/registry.js';

test('no MCP tool belongs to an Exec domain, and no Exec domain is named like an MCP tool family', () => {
  const catalog = builtinCatalog();
  const domains = catalog.domains();
  assert.ok(domains.includes('task') && domains.includes('review'));
  const tools = createAgentteamHandler(testToolDeps()).tools().map((t) => t.name);
  for (const name of tools) {
    const family = name.split('_')[0]!;
    assert.ok(!domains.includes(family), `${name} would put Exec domain ${family} on MCP`);
    for (const d of domains) assert.ok(!name.startsWith(`${d}_`), `${name} is an Exec-owned ${d} action`);
  }
  const families = new Set(tools.map((n) => n.split('_')[0]));
  for (const d of domains) assert.ok(!families.has(d), `Exec domain ${d} also has MCP tools`);
  assert.deepEqual([...families].sort(), ['kb', 'memory', 'message']);
});

test('every MCP tool sets readOnlyHint explicitly and every Exec action declares a risk', () => {
  for (const t of createAgentteamHandler(testToolDeps()).tools()) assert.equal(typeof t.annotations?.readOnlyHint, 'boolean', t.name);
  for (const a of builtinCatalog().actions.values()) assert.ok(['read', 'write', 'destructive'].includes(a.risk), `${a.domain} ${a.action}`);
});
