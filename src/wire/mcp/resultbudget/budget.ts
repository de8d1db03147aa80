// Owns the MCP result budget (spec §Result Boundaries): every tools/call result serializes to ≤ 64 KiB, never cut.
import type { McpToolResult } from '../handler.js';

/** 65536 bytes of UTF-8 JSON of the whole result object (content + structuredContent + isError). */
export const RESULT_BUDGET_BYTES = 64 * 1024;

export const BUDGET_HINT_DEFAULT = 'request less: use a smaller limit or a narrower request';

/** Model-visible tool error payload. */
export interface ToolErrorBody {
  code: string;
  message: string;
  hint?: string;
}

/** A success result: structuredContent mirrored as JSON text in content[0]. */
export function toolResult(structured: Record<string, unknown>): McpToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/** A failure result with isError:true and {code, message, hint?} as structuredContent. */
export function toolError(code: string, message: string, hint?: string): McpToolResult {
  const body: ToolErrorBody = hint === undefined ? { code, message } : { code, message, hint };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body as unknown as Record<string, unknown>, isError: true };
}

/** UTF-8 byte size of a result's final JSON, or Infinity when it cannot be serialized. */
export function resultBytes(result: McpToolResult): number {
  try {
    return Buffer.byteLength(JSON.stringify(result), 'utf8');
  } catch {
    return Infinity;
  }
}

/** True when a success result built from `structured` stays within the budget. */
export function structuredFits(structured: Record<string, unknown>): boolean {
  return resultBytes(toolResult(structured)) <= RESULT_BUDGET_BYTES;
}

export function budgetExceeded(hint: string = BUDGET_HINT_DEFAULT): McpToolResult {
  return toolError('result_budget_exceeded', 'the result is larger than the 64 KiB result budget', hint);
}

/**
 * The final protocol boundary: returns the JSON text of `result` when it serializes within the budget, otherwise
 * the JSON of a result_budget_exceeded error. Security invariant: a JSON value is never cut and serialization
 * causes never cross the boundary.
 */
export function serializeWithinBudget(result: McpToolResult): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(result);
  } catch {
    json = undefined;
  }
  if (json !== undefined && (json.length <= RESULT_BUDGET_BYTES / 3 || Buffer.byteLength(json, 'utf8') <= RESULT_BUDGET_BYTES)) return json;
  return JSON.stringify(budgetExceeded());
}
