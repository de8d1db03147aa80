// Tests ToolNamer: per-runtime conventions, round trips over the real inventory, and construction-time name checks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAgentteamHandler } from '../../tools/agentteam/handler.js';
import { testToolDeps } from '../../tools/agentteam/testkit.js';
import { RUNTIME_KINDS, createToolNamer } from './naming.js';

const inventory = createAgentteamHandler(testToolDeps()).tools().map((t) => t.name);

test('claude, kimi and command use mcp__agentteam__; codex shows only agentteam__ (its gated dynamic namespace); opencode shows agentteam_ and also accepts the spec form mcp_agentteam_', () => {
  for (const k of ['claude', 'kimi', 'command'] as const) assert.equal(createToolNamer(k, inventory).toModel('message_send'), 'mcp__agentteam__message_send');
  const codex = createToolNamer('codex', inventory);
  assert.equal(codex.toModel('message_send'), 'agentteam__message_send');
  // One Codex naming: the native-MCP form is not a Codex name (it would be a path around the gate).
  assert.equal(codex.fromModel('mcp__agentteam__message_send'), null);
  // A hand-run codex's own MCP client (the instructions the MCP route serves) shows the native form.
  assert.equal(createToolNamer('codex', inventory, { nativeMcp: true }).toModel('message_send'), 'mcp__agentteam__message_send');
  const opencode = createToolNamer('opencode', inventory);
  assert.equal(opencode.toModel('message_send'), 'agentteam_message_send');
  assert.deepEqual(opencode.fromModel('mcp_agentteam_message_send'), { server: 'agentteam', tool: 'message_send' });
});

test('every model-visible name is valid for every runtime and maps back to {server, tool}', () => {
  for (const k of RUNTIME_KINDS) {
    const n = createToolNamer(k, inventory);
    for (const raw of inventory) {
      const model = n.toModel(raw);
      assert.match(model, /^[a-zA-Z0-9_-]+$/);
      assert.ok(model.length <= 64, model);
      assert.deepEqual(n.fromModel(model), { server: 'agentteam', tool: raw });
    }
  }
});

test('fromModel rejects foreign names, other conventions and tools outside the inventory', () => {
  const claude = createToolNamer('claude', inventory);
  const opencode = createToolNamer('opencode', inventory);
  assert.equal(claude.fromModel('mcp_agentteam_message_send'), null);
  assert.equal(opencode.fromModel('mcp__agentteam__message_send'), null);
  assert.equal(claude.fromModel('mcp__github__message_send'), null);
  assert.equal(claude.fromModel('mcp__agentteam__task_create'), null);
  assert.equal(claude.fromModel('message_send'), null);
  assert.throws(() => claude.toModel('task_create'));
});

test('construction fails for an inventory name that would be invalid or longer than 64 characters', () => {
  assert.throws(() => createToolNamer('claude', ['has space']));
  assert.throws(() => createToolNamer('claude', ['x'.repeat(49)]), /not a valid model-visible name/);
  assert.doesNotThrow(() => createToolNamer('claude', ['x'.repeat(48)])); // 16 + 48 = 64
  assert.throws(() => createToolNamer('vim' as never, inventory));
});
