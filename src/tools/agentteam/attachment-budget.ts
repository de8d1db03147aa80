// Owns daemon-wide admission for attachment bytes in flight: one budget shared by every runtime's uploads and downloads.
import { toolError } from '../../wire/mcp/resultbudget/budget.js';
import type { McpToolResult } from '../../wire/mcp/handler.js';

/** 24 attachments of 10 MiB in transfer at once (six full messages); bytes stream, so this bounds work, not buffers. */
export const DAEMON_ATTACHMENT_BYTES_IN_FLIGHT = 240 * 1024 * 1024;

/**
 * A byte budget: `tryAcquire(n)` reserves n bytes or refuses at once (no queue, so a burst never piles up waiting
 * calls). Security invariant: the sum of reserved bytes never exceeds the capacity; a release is idempotent.
 */
export class AttachmentBudget {
  private used = 0;
  constructor(readonly capacity = DAEMON_ATTACHMENT_BYTES_IN_FLIGHT) {}

  tryAcquire(bytes: number): (() => void) | undefined {
    if (!Number.isSafeInteger(bytes) || bytes < 0 || this.used + bytes > this.capacity) return undefined;
    this.used += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= bytes;
    };
  }

  get inFlight(): number {
    return this.used;
  }
}

/** The typed refusal a tool returns when the budget is full. */
export function attachmentAdmissionRejected(): McpToolResult {
  return toolError('admission_rejected', 'too many attachment bytes are being transferred on this daemon right now', 'retry in a few seconds, or send fewer or smaller files');
}

/** The refusal when the handler was built without the home and the budget (attachments fail closed). */
export function attachmentsUnavailable(): McpToolResult {
  return toolError('internal', 'attachments are not available on this daemon');
}

/** What the attachment tools need beyond the call context: the AgentTeam home (never attachable) and the budget. */
export interface AttachmentDeps {
  home: string;
  budget: AttachmentBudget;
}
