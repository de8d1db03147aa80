// Owns the message_history_read tool: newest-first pages of an exact target that page themselves to fit the result budget.
import type { MessagePage } from '../../domains/message/contract.js';
import type { MessageDto } from '../../domains/message/contract.js';
import { AUTHORS_SCHEMA, MESSAGE_VIEW_SCHEMA, projectMessagePage } from '../../domains/message/project.js';
import type { ToolContext } from '../../wire/mcp/handler.js';
import { budgetExceeded, RESULT_BUDGET_BYTES, resultBytes, structuredFits, toolResult } from '../../wire/mcp/resultbudget/budget.js';
import { failureResult, invalidInput } from './failures.js';
import { TARGET_HINT, canonicalizeTarget } from './target.js';
import { TARGET_PROP, outputSchema, type AgentteamTool } from './tool.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
const MAX_SHRINKS = 4;

/** The result of one page: its projection (messages, authors), hasMore, and nextCursor only when another page exists. */
function structured(list: readonly MessageDto[], page: { hasMore: boolean; nextCursor?: string | undefined }): Record<string, unknown> {
  const { messages, authors } = projectMessagePage(list);
  const out: Record<string, unknown> = { messages, authors, hasMore: page.hasMore };
  if (page.nextCursor !== undefined) out.nextCursor = page.nextCursor;
  return out;
}

/** The largest k such that the first k messages, with a continuation cursor like `cursor`, fit the budget. */
function largestFittingPrefix(messages: readonly MessageDto[], cursor: string): number {
  let lo = 0;
  let hi = messages.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (structuredFits(structured(messages.slice(0, mid), { hasMore: true, nextCursor: cursor }))) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

async function fetchPage(ctx: ToolContext, target: string, limit: number, cursor: string | undefined): Promise<MessagePage> {
  const input: { target: string; limit: number; cursor?: string } = { target, limit };
  if (cursor !== undefined) input.cursor = cursor;
  return ctx.api.messages.list(input, { signal: ctx.signal });
}

export const messageHistoryRead: AgentteamTool = {
  def: {
    name: 'message_history_read',
    description: 'Read messages of an exact target, newest first; pass nextCursor to continue.',
    inputSchema: {
      type: 'object',
      properties: { target: TARGET_PROP, limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT }, cursor: { type: 'string' } },
      required: ['target'],
      additionalProperties: false,
    },
    outputSchema: outputSchema({
      properties: { messages: { type: 'array', items: MESSAGE_VIEW_SCHEMA }, authors: AUTHORS_SCHEMA, hasMore: { type: 'boolean' }, nextCursor: { type: 'string' } },
      required: ['messages', 'authors', 'hasMore'],
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  /**
   * Steps: fetch the requested page; if it fits, return it. Otherwise find the largest prefix that fits, re-fetch
   * exactly that many from the same cursor (so the server issues the cursor that continues after them) and
   * re-check, a few times at most. A single message over the budget yields result_budget_exceeded whose hint
   * carries the cursor that skips it.
   */
  async run(ctx, args) {
    const target = canonicalizeTarget(args.target as string);
    if (target === null) return invalidInput('target is not an exact target', TARGET_HINT);
    const cursor = args.cursor as string | undefined;
    let limit = (args.limit as number | undefined) ?? DEFAULT_LIMIT;
    try {
      for (let attempt = 0; attempt <= MAX_SHRINKS; attempt++) {
        const page = await fetchPage(ctx, target, limit, cursor);
        const messages = page.messages;
        const result = toolResult(structured(messages, page));
        if (resultBytes(result) <= RESULT_BUDGET_BYTES) return result;
        const k = largestFittingPrefix(messages, page.nextCursor ?? cursor ?? '');
        if (k === 0) break;
        limit = Math.min(k, limit - 1);
      }
      // Every message is bounded under ITEM_BYTES_MAX (its mirrored MCP form under 48 KiB), so a page of one always
      // fits: the walk goes on from here, never ending without a way on.
      const one = await fetchPage(ctx, target, 1, cursor);
      const single = toolResult(structured(one.messages, one));
      if (resultBytes(single) <= RESULT_BUDGET_BYTES) return single;
      const first = one.messages[0];
      if (first && one.nextCursor !== undefined) {
        return budgetExceeded(`message ${first.id} alone exceeds the result budget; continue after it with cursor ${JSON.stringify(one.nextCursor)}`);
      }
      return budgetExceeded(first ? `message ${first.id} alone exceeds the result budget and is the last one` : 'retry with a smaller limit');
    } catch (e) {
      return failureResult(e);
    }
  },
};
