// Owns the daemon-boundary effect check for child-scoped MCP credentials: a handler wrapper, so every tools/call of
// every protocol revision reaches it on its way into CallTool (the only execution entry point, spec §MCP Transport).
import { allowed, CHILD_DENIED_TEXT, decide, EffectInventory } from './child-gate.js';
import type { RateLimitedLogger } from '../../shared/rate-limited-log.js';
import type { McpHandler } from './handler.js';
import { toolError } from './resultbudget/budget.js';

/**
 * Wraps `handler` so a credential with effect `read-only` may call only tools its own inventory declares
 * readOnlyHint === true; any other call is refused with the fixed child text before the tool runs. Credentials
 * without an effect are untouched. The inventory is the handler's own tools() (what tools/list serves), never the call.
 */
export function withChildEffectCheck(handler: McpHandler, diag: RateLimitedLogger): McpHandler {
  const inventory = new EffectInventory(handler.tools());
  return {
    tools: () => handler.tools(),
    skillDoc: (namer) => handler.skillDoc(namer),
    skillDocSplit: (namer) => handler.skillDocSplit(namer),
    async callTool(ctx, agentId, name, args) {
      if (ctx.info.effect !== 'read-only') return handler.callTool(ctx, agentId, name, args);
      // Security invariant: a child-scoped credential causes no effect: readOnlyHint === true or refused, before dispatch.
      const decision = decide(inventory, false, name);
      const fields = { authorizationId: ctx.info.authorization.id, credentialId: ctx.info.generationId, tool: name.slice(0, 128), decision };
      diag.warn(`mcp:child-effect:${decision}`, fields, 'child credential tool call');
      if (!allowed(decision)) return toolError('denied', CHILD_DENIED_TEXT);
      return handler.callTool(ctx, agentId, name, args);
    },
  };
}
