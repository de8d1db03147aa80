// Snapshot-tests the agentteam skill docs and the public tool schemas; checks the docs name exactly the inventory tools.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { RUNTIME_KINDS, createToolNamer } from '../../wire/mcp/naming.js';
import { createAgentteamHandler } from './handler.js';
import { testToolDeps } from './testkit.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const update = process.env.UPDATE_SNAPSHOTS === '1';
const h = createAgentteamHandler(testToolDeps());
const inventory = h.tools().map((t) => t.name);

/** Compares with the checked-in snapshot; `UPDATE_SNAPSHOTS=1` rewrites it (review the diff). */
function matchSnapshot(file: string, actual: string): void {
  const path = join(here, file);
  if (update) writeFileSync(path, actual);
  assert.equal(actual, readFileSync(path, 'utf8'), `${file} changed; rerun with UPDATE_SNAPSHOTS=1 and review the diff`);
}

function renderAll(): string {
  const out: string[] = [];
  for (const kind of ['claude', 'opencode'] as const) {
    const namer = createToolNamer(kind, inventory);
    const split = h.skillDocSplit(namer);
    out.push(`<!-- ${kind}: stable -->`, split.stable, `<!-- ${kind}: route -->`, split.route, '');
  }
  return out.join('\n');
}

test('skill docs match the checked-in snapshot', () => {
  matchSnapshot('skilldoc.snapshot.md', renderAll());
});

test('tool schemas match the checked-in snapshot (the public surface changes only in review)', () => {
  matchSnapshot('tools.snapshot.json', `${JSON.stringify({ tools: h.tools() }, null, 2)}\n`);
});

test('skill docs name every inventory tool, and only inventory tools, in the runtime naming', () => {
  for (const kind of RUNTIME_KINDS) {
    const namer = createToolNamer(kind, inventory);
    const doc = h.skillDoc(namer);
    const named = new Set([...doc.matchAll(/`((?:mcp_{1,2})?agentteam_{1,2}[a-z_]+)`/g)].map((m) => m[1]!));
    for (const n of named) assert.notEqual(namer.fromModel(n), null, `${kind}: ${n} is not an inventory tool`);
    assert.deepEqual([...named].map((n) => namer.fromModel(n)!.tool).sort(), [...inventory].sort());
    const split = h.skillDocSplit(namer);
    assert.equal(doc, `${split.stable}\n\n${split.route}\n`);
    assert.ok(!split.route.includes(namer.toModel(inventory[0]!)), 'the route part carries no tool names');
  }
});
