// Owns how tool failures reach the model: the shared public failure mapping plus MCP default hints.
import type { McpToolResult } from '../../wire/mcp/handler.js';
import { toolError } from '../../wire/mcp/resultbudget/budget.js';
import { publicFailure } from '../../shared/failure.js';

/** MCP-only default hints for codes the model can act on; the code and message come from the shared mapping. */
const HINTS: Record<string, string> = {
  denied: 'this agent may not use that target or resource; use a target from your current messages',
  not_found: 'check the id or target; use the exact value shown in the message',
  validation_failed: 'fix the arguments; a cursor must come from the previous page of the same target',
  admission_rejected: 'the server is busy; retry in a few seconds',
};

/** Public messages are still bounded before they reach the model. */
const bounded = (m: string) => (m.length > 300 ? `${m.slice(0, 297)}...` : m || 'request refused');

/**
 * Maps a thrown failure to a tool result through the same mapping as Exec envelopes (shared/failure.ts). Security
 * invariant: network, timeout and server faults become one generic upstream_unavailable without causes or credentials.
 */
export function failureResult(e: unknown): McpToolResult {
  const f = publicFailure(e);
  return toolError(f.code, bounded(f.message), f.hint ?? HINTS[f.code]);
}

export function invalidInput(message: string, hint?: string): McpToolResult {
  return toolError('invalid_input', message, hint);
}
