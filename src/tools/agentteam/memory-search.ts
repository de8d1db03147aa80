// Owns the memory_search tool: locator-only full-text search over the calling agent's own managed Memory clone.
import { MEMORY_DIR_ENV } from '../../memorysearch/clone.js';
import type { SearchOutcome } from '../../memorysearch/index.js';
import { toolError, toolResult } from '../../wire/mcp/resultbudget/budget.js';
import { invalidInput } from './failures.js';
import { outputSchema, type AgentteamTool } from './tool.js';

export const MEMORY_DEFAULT_LIMIT = 5;
export const MEMORY_MAX_LIMIT = 20;

/** What the tool needs from the memory owner (src/memorysearch/service.ts). */
export interface MemorySearchPort {
  search(agentId: string, query: string, limit: number): SearchOutcome;
}

/** The classified failure for a missing or rebuilding index; it names the fallback. */
export const INDEX_UNAVAILABLE = 'index_unavailable';
const FALLBACK = `search the folder directly: grep -rn WORD "$${MEMORY_DIR_ENV}"`;

export function memorySearchTool(memory: MemorySearchPort | undefined): AgentteamTool {
  return {
    def: {
      name: 'memory_search',
      description: `Full-text search of your memory files ($${MEMORY_DIR_ENV}).`,
      inputSchema: {
        type: 'object',
        properties: { query: { type: 'string', minLength: 1, maxLength: 512 }, limit: { type: 'integer', minimum: 1, maximum: MEMORY_MAX_LIMIT } },
        required: ['query'],
        additionalProperties: false,
      },
      outputSchema: outputSchema({ properties: { hits: { type: 'array' } }, required: ['hits'] }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async run(ctx, args) {
      // Security invariant: the clone searched is the one of the agent bound to the caller's credential, never an argument.
      const agentId = ctx.info.authorization.agentId;
      const out = memory ? memory.search(agentId, args.query as string, (args.limit as number | undefined) ?? MEMORY_DEFAULT_LIMIT) : ({ ok: false, reason: 'missing' } as const);
      // Locators (ARCHITECTURE: path, line range, score, short snippet), best first: `lines` is "start-end" (1-based,
      // inclusive), the score bm25 to two significant digits (higher is better; a line-number pair in keys cost ~10 tokens).
      if (out.ok) return toolResult({ hits: out.hits.map((h) => ({ path: h.path, lines: `${h.startLine}-${h.endLine}`, score: Number(h.score.toPrecision(2)), snippet: h.snippet })) });
      if (out.reason === 'no_terms') return invalidInput('query has no words to search', 'use letters or digits; add * for a prefix');
      // The index never follows a symlinked clone; the agent is told so, since only it can put a real folder back.
      if (out.reason === 'refused') return toolError(INDEX_UNAVAILABLE, `$${MEMORY_DIR_ENV} is a symlink or not a folder; memory is not indexed through it`, 'make it a real folder again');
      const why = out.reason === 'building' ? 'the memory index is being built' : 'there is no memory index yet';
      return toolError(INDEX_UNAVAILABLE, why, FALLBACK);
    },
  };
}
