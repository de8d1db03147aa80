// Owns the message_attachment_read tool: saves an attachment into the workdir and returns a locator, never the blob.
import { toolError, toolResult } from '../../wire/mcp/resultbudget/budget.js';
import { failureResult, invalidInput } from './failures.js';
import { outputSchema, type AgentteamTool } from './tool.js';
import { WorkdirError, saveAttachment } from './workdir.js';

const ATTACHMENT_ID = /^[A-Za-z0-9_-]{1,128}$/;

export const messageAttachmentRead: AgentteamTool = {
  def: {
    name: 'message_attachment_read',
    title: 'Read attachment',
    description: 'Save a message attachment under .agentteam/attachments in the working directory; returns its relative path.',
    inputSchema: { type: 'object', properties: { attachmentId: { type: 'string', minLength: 1 } }, required: ['attachmentId'], additionalProperties: false },
    outputSchema: outputSchema({
      properties: { path: { type: 'string' }, name: { type: 'string' }, contentType: { type: 'string' }, size: { type: 'integer' } },
      required: ['path', 'name', 'contentType', 'size'],
    }),
    // Read-only for AgentTeam state; the only local effect is the daemon-owned attachment cache in the workdir.
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async run(ctx, args) {
    const id = args.attachmentId as string;
    if (!ATTACHMENT_ID.test(id)) return invalidInput('attachmentId is not an attachment id', 'use an attachment id shown on a message');
    let a;
    try {
      a = await ctx.api.messages.getAttachment(id, { signal: ctx.signal });
    } catch (e) {
      return failureResult(e);
    }
    try {
      const path = await saveAttachment(ctx.info.authorization.workdir, a.id, a.name, a.data);
      return toolResult({ path, name: a.name, contentType: a.contentType, size: a.data.length });
    } catch (e) {
      if (e instanceof WorkdirError) return invalidInput(e.message, 'remove the non-directory .agentteam entry from the working directory');
      return toolError('internal', 'the attachment could not be saved in the working directory');
    }
  },
};
