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

/** The JSON of a result built here, kept non-enumerable on it so the boundary serializes each result once. */
const SERIALIZED = Symbol('serialized');
type Serialized = McpToolResult & { [SERIALIZED]?: string };

/**
 * Builds {content:[{type:'text',text}], structuredContent, isError?} with its JSON: exactly what JSON.stringify of the
 * result gives (same key order), built from the one serialization of `structured`.
 */
function build(structured: Record<string, unknown>, isError: boolean): McpToolResult {
  const text = JSON.stringify(structured);
  const result: McpToolResult = isError ? { content: [{ type: 'text', text }], structuredContent: structured, isError: true } : { content: [{ type: 'text', text }], structuredContent: structured };
  const json = `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}${isError ? ',"isError":true' : ''}}`;
  Object.defineProperty(result, SERIALIZED, { value: json, enumerable: false });
  return result;
}

/** A success result: structuredContent mirrored as JSON text in content[0]. */
export function toolResult(structured: Record<string, unknown>): McpToolResult {
  return build(structured, false);
}

/** A failure result with isError:true and {code, message, hint?} as structuredContent. */
export function toolError(code: string, message: string, hint?: string): McpToolResult {
  const body: ToolErrorBody = hint === undefined ? { code, message } : { code, message, hint };
  return build(body as unknown as Record<string, unknown>, true);
}

/** The result's final JSON (reusing the one built with it), or undefined when it cannot be serialized. */
function serialize(result: McpToolResult): string | undefined {
  const own = (result as Serialized)[SERIALIZED];
  if (own !== undefined) return own;
  try {
    return JSON.stringify(result);
  } catch {
    return undefined;
  }
}

/** UTF-8 byte size of a result's final JSON, or Infinity when it cannot be serialized. */
export function resultBytes(result: McpToolResult): number {
  const json = serialize(result);
  return json === undefined ? Infinity : Buffer.byteLength(json, 'utf8');
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
  const json = serialize(result);
  if (json !== undefined && (json.length <= RESULT_BUDGET_BYTES / 3 || Buffer.byteLength(json, 'utf8') <= RESULT_BUDGET_BYTES)) return json;
  return JSON.stringify(budgetExceeded());
}
