// Owns the kb_search and kb_fetch tools: knowledge retrieval bound to the current Human turn, forwarded for server revalidation.
import type { KbDocument, KbHit, KbStage } from '../../domains/knowledge/contract.js';
import { KB_DOCUMENT_PROPERTIES, KB_HITS_SCHEMA, projectKbDocument, projectKbHit, type KbDocumentView, type KbHitView } from '../../domains/knowledge/project.js';
import type { McpToolResult, ToolContext } from '../../wire/mcp/handler.js';
import { budgetExceeded, RESULT_BUDGET_BYTES, resultBytes, structuredFits, toolResult } from '../../wire/mcp/resultbudget/budget.js';
import { publicFailure, serverErrorKind } from '../../shared/failure.js';
import { outputSchema, type AgentteamTool } from './tool.js';

/** A classified knowledge failure: the tool-error shape plus the outer `stage` (spec §Failure Model). */
function kbFailure(stage: KbStage, code: string, message: string, hint?: string): McpToolResult {
  const body: Record<string, unknown> = { code, message, stage };
  if (hint) body.hint = hint;
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: true };
}

/** The stage of a failed server call: the server's own tag, else inferred from where the call failed. */
function stageOf(e: unknown): KbStage {
  const tagged = (e as { details?: { stage?: unknown } } | null)?.details?.stage;
  if (tagged === 'route' || tagged === 'request_validation' || tagged === 'target_scope_resolution' || tagged === 'upstream') return tagged;
  const code = (e as { code?: unknown } | null)?.code;
  if (serverErrorKind(e) === 'client' && (e as { httpStatus?: number }).httpStatus === 404 && (e as Error).message === 'no such route') return 'route';
  if (code === 'validation_failed' || code === 'invalid_input') return 'request_validation';
  return 'upstream';
}

/** The turn binding, or the classified failure. Security invariant: the binding comes from session metadata only, never from arguments. */
function binding(ctx: ToolContext): { serverId: string; target: string; targetType: string; messageId: string } | McpToolResult {
  const turn = ctx.turn;
  if (!turn) return kbFailure('target_scope_resolution', 'denied', 'knowledge is only available while answering a turn', 'answer from the conversation instead');
  if (turn.authorKind !== 'human') return kbFailure('target_scope_resolution', 'denied', 'this turn was started by an agent, not a Human', 'knowledge is only for Human turns');
  return { serverId: ctx.info.authorization.serverId, target: turn.target, targetType: turn.targetType, messageId: turn.messageId };
}

/**
 * The result within the budget: the server bounds pages in bytes, and as a net the trailing items are dropped until it
 * fits (for a fetch, nextSection then points at the first dropped section, so the walk goes on).
 */
function fit(data: { hits: KbHitView[] } | KbDocumentView, sectionCount = 0): McpToolResult {
  const full = toolResult(data as unknown as Record<string, unknown>);
  if (resultBytes(full) <= RESULT_BUDGET_BYTES) return full;
  if ('hits' in data) {
    for (let k = data.hits.length - 1; k >= 1; k--) if (structuredFits({ hits: data.hits.slice(0, k) })) return toolResult({ hits: data.hits.slice(0, k) });
    return budgetExceeded('use a smaller limit or a more specific query');
  }
  for (let k = data.sections.length - 1; k >= 1; k--) {
    const page = { ...data, sections: data.sections.slice(0, k), nextSection: data.sections[k]!.section };
    if (structuredFits(page as unknown as Record<string, unknown>)) return toolResult(page as unknown as Record<string, unknown>);
  }
  const first = data.sections[0]?.section ?? 0;
  return budgetExceeded(first + 1 < sectionCount ? `section ${first} alone exceeds the result budget; continue with section ${first + 1}` : `section ${first} alone exceeds the result budget`);
}

async function call(ctx: ToolContext, run: (b: Exclude<ReturnType<typeof binding>, McpToolResult>) => Promise<{ hits: KbHit[] } | KbDocument>): Promise<McpToolResult> {
  const b = binding(ctx);
  if ('content' in b) return b;
  try {
    const r = await run(b);
    return 'hits' in r ? fit({ hits: r.hits.map(projectKbHit) }) : fit(projectKbDocument(r), r.sectionCount);
  } catch (e) {
    const f = publicFailure(e);
    return kbFailure(stageOf(e), f.code, f.message.slice(0, 300), f.hint);
  }
}

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

export const kbSearch: AgentteamTool = {
  def: {
    name: 'kb_search',
    description: 'Search the knowledge this conversation may read.',
    inputSchema: { type: 'object', properties: { query: { type: 'string', minLength: 1 }, limit: { type: 'integer', minimum: 1, maximum: 20 } }, required: ['query'], additionalProperties: false },
    outputSchema: outputSchema({ properties: { hits: KB_HITS_SCHEMA }, required: ['hits'] }),
    annotations: readOnly,
  },
  run: (ctx, args) => call(ctx, (b) => ctx.api.knowledge.search({ ...b, query: args.query as string, ...(args.limit !== undefined ? { limit: args.limit as number } : {}) }, { signal: ctx.signal })),
};

export const kbFetch: AgentteamTool = {
  def: {
    name: 'kb_fetch',
    description: 'Read a kb_search hit from its section on; continue with nextSection.',
    inputSchema: { type: 'object', properties: { documentId: { type: 'string', minLength: 1 }, section: { type: 'integer', minimum: 0 } }, required: ['documentId'], additionalProperties: false },
    outputSchema: outputSchema({ properties: KB_DOCUMENT_PROPERTIES, required: ['sections'] }),
    annotations: readOnly,
  },
  run: (ctx, args) => call(ctx, (b) => ctx.api.knowledge.fetch({ ...b, documentId: args.documentId as string, ...(args.section !== undefined ? { section: args.section as number } : {}) }, { signal: ctx.signal })),
};
