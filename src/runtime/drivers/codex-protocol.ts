// Owns the Codex app-server turn request (driver → helper stdin) and the helper's answers to server requests.

/** What the codex driver writes to the codex-turn helper's stdin: one JSON object. */
export interface CodexTurnRequest {
  developerInstructions: string;
  prompt: string;
  resumeId?: string;
  model?: string;
}

/** True for a well-formed request: string instructions and prompt, optional string resume id and model. */
export function isTurnRequest(v: unknown): v is CodexTurnRequest {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const r = v as Record<string, unknown>;
  const optional = (k: string) => r[k] === undefined || typeof r[k] === 'string';
  return typeof r.developerInstructions === 'string' && typeof r.prompt === 'string' && optional('resumeId') && optional('model');
}

/**
 * The answer to a server request a headless client cannot put to a person (`codex app-server generate-ts`, 0.169.0:
 * ServerRequest): approvals are declined, elicitations declined, anything else is a JSON-RPC method-not-found error.
 */
export function declineServerRequest(method: string): { result: unknown } | { error: { code: number; message: string } } {
  if (method === 'item/commandExecution/requestApproval' || method === 'item/fileChange/requestApproval') return { result: { decision: 'decline' } };
  if (method === 'execCommandApproval' || method === 'applyPatchApproval') return { result: { decision: 'abort' } };
  if (method === 'mcpServer/elicitation/request') return { result: { action: 'decline', content: null, _meta: null } };
  return { error: { code: -32601, message: `${method} is not supported by this headless client` } };
}
