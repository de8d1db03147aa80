// Owns the message_attachment_read tool: streams an attachment into the workdir and returns a locator, never the blob.
import { AppError } from '../../shared/errors.js';
import { toolError, toolResult } from '../../wire/mcp/resultbudget/budget.js';
import { attachmentAdmissionRejected, attachmentsUnavailable, type AttachmentDeps } from './attachment-budget.js';
import type { McpToolResult, ToolContext } from '../../wire/mcp/handler.js';
import { failureResult, invalidInput } from './failures.js';
import { outputSchema, type AgentteamTool } from './tool.js';
import { MAX_ATTACHMENT_BYTES, WorkdirError, saveAttachment } from './workdir.js';

const ATTACHMENT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Thrown from inside the download when the budget is full (the body is then left unread and the socket dropped). */
class Rejected extends Error {}

const DEF: AgentteamTool['def'] = {
  name: 'message_attachment_read',
  description: 'Save a message attachment under .agentteam/attachments; returns its path.',
  inputSchema: { type: 'object', properties: { attachmentId: { type: 'string', minLength: 1 } }, required: ['attachmentId'], additionalProperties: false },
  outputSchema: outputSchema({
    properties: { path: { type: 'string' }, name: { type: 'string' }, contentType: { type: 'string' }, size: { type: 'integer' } },
    required: ['path', 'name', 'contentType', 'size'],
  }),
  // Read-only for AgentTeam state; the only local effect is the daemon-owned attachment cache in the workdir.
  annotations: { readOnlyHint: true, openWorldHint: false },
};

/** message_attachment_read; without `att` (the home and the budget) it fails closed. */
export function messageAttachmentReadTool(att: AttachmentDeps | undefined): AgentteamTool {
  return { def: DEF, run: (ctx, args) => run(ctx, args, att) };
}

async function run(ctx: ToolContext, args: Record<string, unknown>, att: AttachmentDeps | undefined): Promise<McpToolResult> {
  const id = args.attachmentId as string;
  if (!ATTACHMENT_ID.test(id)) return invalidInput('attachmentId is not an attachment id', 'use an attachment id shown on a message');
  if (!att) return attachmentsUnavailable();
  const deps = att;
  let release: (() => void) | undefined;
  try {
    const saved = await ctx.api.messages.read(
      id,
      async (meta, body) => {
        if (meta.size > MAX_ATTACHMENT_BYTES) throw new WorkdirError('the attachment is larger than 10 MiB');
        // Security invariant: download bytes count against the same daemon-wide budget as uploads.
        release = deps.budget.tryAcquire(meta.size);
        if (!release) throw new Rejected();
        const path = await saveAttachment(ctx.info.authorization.workdir, meta.id, meta.name, async (fh) => {
          for await (const c of body) await fh.write(c);
        });
        return { path, name: meta.name, contentType: meta.contentType, size: meta.size };
      },
      { signal: ctx.signal },
    );
    return toolResult(saved);
  } catch (e) {
    if (e instanceof Rejected) return attachmentAdmissionRejected();
    if (e instanceof WorkdirError) return invalidInput(e.message, 'make .agentteam/attachments a plain folder in the working directory, then retry');
    // A server refusal, or the daemon's own check of the same contract (e.g. a byte bound), keeps its code.
    if (e instanceof AppError) return failureResult(e);
    const errno = (e as NodeJS.ErrnoException | undefined)?.code;
    return toolError('internal', `the attachment could not be saved in the working directory${typeof errno === 'string' && /^E[A-Z]+$/.test(errno) ? ` (${errno})` : ''}`);
  } finally {
    release?.();
  }
}
