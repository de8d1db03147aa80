// Owns the message_send tool: exact target + content (+ reply, workdir attachments), checked locally, authorized by the server.
import type { NewAttachment } from '../../server-client/api.js';
import { compactTime } from '../../shared/compact.js';
import { toolResult } from '../../wire/mcp/resultbudget/budget.js';
import { failureResult, invalidInput } from './failures.js';
import { TARGET_HINT, canonicalizeTarget } from './target.js';
import { TARGET_PROP, outputSchema, type AgentteamTool } from './tool.js';
import { MAX_ATTACHMENTS, WorkdirError, readWorkdirAttachment } from './workdir.js';

export const MAX_CONTENT_CHARS = 8000;

export const messageSend: AgentteamTool = {
  def: {
    name: 'message_send',
    title: 'Send message',
    description: 'Send a message to an exact target. Answer on the target shown with the message you reply to.',
    inputSchema: {
      type: 'object',
      properties: {
        target: TARGET_PROP,
        content: { type: 'string', minLength: 1, maxLength: MAX_CONTENT_CHARS },
        replyTo: { type: 'string', description: 'id of the message answered' },
        attachments: { type: 'array', items: { type: 'string' }, maxItems: MAX_ATTACHMENTS, description: 'file paths relative to the working directory, ≤10 MiB each' },
      },
      required: ['target', 'content'],
      additionalProperties: false,
    },
    outputSchema: outputSchema({ properties: { id: { type: 'string' }, target: { type: 'string' }, at: { type: 'string' } }, required: ['id', 'target', 'at'] }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  async run(ctx, args) {
    const target = canonicalizeTarget(args.target as string);
    if (target === null) return invalidInput('target is not an exact target', TARGET_HINT);
    const content = args.content as string;
    if (content.trim().length === 0) return invalidInput('content is empty');
    const replyTo = args.replyTo as string | undefined;
    const paths = (args.attachments as string[] | undefined) ?? [];
    const attachments: NewAttachment[] = [];
    try {
      for (const p of paths) attachments.push(await readWorkdirAttachment(ctx.info.authorization.workdir, p));
    } catch (e) {
      if (e instanceof WorkdirError) return invalidInput(e.message, 'attach regular files inside the working directory, by relative path');
      throw e;
    }
    try {
      const input: { target: string; content: string; replyTo?: string; attachments?: NewAttachment[] } = { target, content };
      if (replyTo !== undefined) input.replyTo = replyTo;
      if (attachments.length > 0) input.attachments = attachments;
      const m = await ctx.api.messages.send(input, { signal: ctx.signal });
      return toolResult({ id: m.id, target: m.target, at: compactTime(m.createdAt) });
    } catch (e) {
      return failureResult(e);
    }
  },
};
