// Tests the daemon-boundary child check on a handler whose inventory has a tool without the annotation: only a
// read-only-effect credential is restricted, and a refused call never reaches the handler.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../shared/clock.js';
import { RateLimitedLogger } from '../../shared/rate-limited-log.js';
import { CHILD_DENIED_TEXT } from './child-gate.js';
import { withChildEffectCheck } from './child-effect.js';
import type { McpHandler, McpToolDef, ToolContext } from './handler.js';

const def = (name: string, annotations?: { readOnlyHint: boolean }) => ({ name, description: name, inputSchema: { type: 'object' }, ...(annotations ? { annotations } : {}) }) as McpToolDef;

test('a read-only-effect credential calls only readOnlyHint === true tools; a missing annotation is effectful; the full credential is untouched', async () => {
  const ran: string[] = [];
  const inner: McpHandler = {
    tools: () => [def('look', { readOnlyHint: true }), def('write', { readOnlyHint: false }), def('bare')],
    callTool: async (_ctx, _agent, name) => {
      ran.push(name);
      return { content: [{ type: 'text', text: 'ok' }] };
    },
    skillDoc: () => '',
    skillDocSplit: () => ({ stable: '', route: '' }),
  };
  const lines: Record<string, unknown>[] = [];
  const h = withChildEffectCheck(inner, new RateLimitedLogger({ warn: (o) => lines.push(o) }, new FakeClock(0)));
  const ctx = (effect?: 'read-only') => ({ info: { scope: 'mcp', generationId: 'mcpk_1', expiresAt: 0, authorization: { id: 'rta_1' }, ...(effect ? { effect } : {}) } }) as unknown as ToolContext;
  assert.equal((await h.callTool(ctx('read-only'), 'a', 'look', {})).isError, undefined);
  for (const name of ['write', 'bare']) {
    const r = await h.callTool(ctx('read-only'), 'a', name, { readOnlyHint: true });
    assert.equal(r.isError, true);
    assert.deepEqual(r.structuredContent, { code: 'denied', message: CHILD_DENIED_TEXT });
  }
  for (const name of ['write', 'bare']) assert.equal((await h.callTool(ctx(), 'a', name, {})).isError, undefined);
  assert.deepEqual(ran, ['look', 'write', 'bare']);
  assert.deepEqual(lines.map((l) => [l.tool, l.decision]), [['look', 'allow-read-only'], ['write', 'deny-effectful'], ['bare', 'deny-effectful']]);
  assert.equal(h.tools().length, 3, 'tools/list is never filtered');
});
