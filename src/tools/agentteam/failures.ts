// Owns how tool failures reach the model: model-caused codes pass through; anything else is upstream_unavailable.
import type { McpToolResult } from '../../wire/mcp/handler.js';
import { toolError } from '../../wire/mcp/resultbudget/budget.js';

/** Codes that describe the caller's request (bad args, target denied or missing, validation), safe to show. */
const MODEL_CAUSED = new Set(['invalid_input', 'validation_failed', 'not_found', 'denied', 'conflict', 'idempotency_conflict', 'payload_too_large', 'admission_rejected']);

const HINTS: Record<string, string> = {
  denied: 'this agent may not use that target or resource; use a target from your current messages',
  not_found: 'check the id or target; use the exact value shown in the message',
  validation_failed: 'fix the arguments; a cursor must come from the previous page of the same target',
  admission_rejected: 'the server is busy; retry in a few seconds',
};

/** Server messages are public envelope text, but are still bounded before they reach the model. */
function publicMessage(e: unknown): string {
  const m = e instanceof Error ? e.message : '';
  return m.length > 0 ? (m.length > 300 ? `${m.slice(0, 297)}...` : m) : 'request refused';
}

/**
 * Maps a thrown server-call failure to a tool result. Security invariant: network, timeout and server faults
 * become one generic upstream_unavailable without causes, URLs or credentials.
 */
export function failureResult(e: unknown): McpToolResult {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  if (typeof code === 'string' && MODEL_CAUSED.has(code)) return toolError(code, publicMessage(e), HINTS[code]);
  return toolError('upstream_unavailable', 'the AgentTeam server is unavailable right now', 'retry shortly');
}

export function invalidInput(message: string, hint?: string): McpToolResult {
  return toolError('invalid_input', message, hint);
}
