// Owns the message_send tool: exact target + content (+ reply, workdir attachments), checked locally, authorized by the server.
import { compactTime } from '../../shared/compact.js';
import { AppError } from '../../shared/errors.js';
import { toolError, toolResult } from '../../wire/mcp/resultbudget/budget.js';
import { attachmentAdmissionRejected, attachmentsUnavailable, type AttachmentDeps } from './attachment-budget.js';
import { failureResult, invalidInput } from './failures.js';
import { TARGET_HINT, canonicalizeTarget } from './target.js';
import { TARGET_PROP, outputSchema, type AgentteamTool } from './tool.js';
import type { McpToolResult, ToolContext } from '../../wire/mcp/handler.js';
import { MAX_ATTACHMENTS, WorkdirError, openWorkdirAttachment, readChunks, type OpenedAttachment } from './workdir.js';

import { CONTENT } from '../../domains/message/contract.js';

/** The message contract's content bound (the daemon client also checks its serialized bytes before sending). */
export const MAX_CONTENT_CHARS = CONTENT.chars;
const ATTACH_HINT = 'attach regular files inside the working directory, by relative path, not through symlinks';

const DEF: AgentteamTool['def'] = {
  name: 'message_send',
  description: 'Send to an exact target; answer on the target of the message you reply to.',
  inputSchema: {
    type: 'object',
    properties: {
      target: TARGET_PROP,
      content: { type: 'string', minLength: 1, maxLength: MAX_CONTENT_CHARS },
      replyTo: { type: 'string' },
      attachments: { type: 'array', items: { type: 'string' }, maxItems: MAX_ATTACHMENTS, description: 'workdir-relative file paths, ≤10 MiB each' },
    },
    required: ['target', 'content'],
    additionalProperties: false,
  },
  outputSchema: outputSchema({ properties: { id: { type: 'string' }, target: { type: 'string' }, at: { type: 'string' } }, required: ['id', 'target', 'at'] }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
};

/** message_send; `att` (the home and the budget) is needed only when a call carries attachments. */
export function messageSendTool(att: AttachmentDeps | undefined): AgentteamTool {
  return { def: DEF, run: (ctx, args) => run(ctx, args, att) };
}

async function run(ctx: ToolContext, args: Record<string, unknown>, deps: AttachmentDeps | undefined): Promise<McpToolResult> {
  const target = canonicalizeTarget(args.target as string);
  if (target === null) return invalidInput('target is not an exact target', TARGET_HINT);
  const content = args.content as string;
  if (content.trim().length === 0) return invalidInput('content is empty');
  const replyTo = args.replyTo as string | undefined;
  const paths = (args.attachments as string[] | undefined) ?? [];
  if (paths.length > 0 && !deps) return attachmentsUnavailable();
  const opened: OpenedAttachment[] = [];
  let release: (() => void) | undefined;
  try {
    // Every file is opened and verified before any byte is sent, so a bad path changes nothing.
    for (const p of paths) opened.push(await openWorkdirAttachment(ctx.info.authorization.workdir, deps!.home, p));
    if (opened.length > 0) {
      // Security invariant: attachment bytes in flight across the daemon stay within the budget; beyond it, a typed refusal.
      release = deps!.budget.tryAcquire(opened.reduce((n, a) => n + a.size, 0));
      if (!release) return attachmentAdmissionRejected();
    }
    const attachmentIds: string[] = [];
    for (const a of opened) {
      const up = await ctx.api.messages.upload({ name: a.name, contentType: a.contentType, size: a.size, body: readChunks(a) }, { signal: ctx.signal });
      attachmentIds.push(up.id);
    }
    const input: { target: string; content: string; replyTo?: string; attachmentIds?: string[] } = { target, content };
    if (replyTo !== undefined) input.replyTo = replyTo;
    if (attachmentIds.length > 0) input.attachmentIds = attachmentIds;
    const m = await ctx.api.messages.send(input, { signal: ctx.signal });
    return toolResult({ id: m.id, target: m.target, at: compactTime(m.createdAt) });
  } catch (e) {
    if (e instanceof WorkdirError) return invalidInput(e.message, ATTACH_HINT);
    // A server refusal, or the daemon's own check of the same contract (e.g. a byte bound), keeps its code.
    if (e instanceof AppError) return failureResult(e);
    return toolError('internal', 'an attachment could not be read from the working directory');
  } finally {
    release?.();
    for (const a of opened) await a.fh.close().catch(() => undefined);
  }
}
