// Owns the message_react tool: add or remove one emoji reaction on a message the agent can read.
import { REACTIONS_SCHEMA, reactionCounts } from '../../domains/message/project.js';
import { toolResult } from '../../wire/mcp/resultbudget/budget.js';
import { EMOJI } from '../../domains/message/contract.js';
import { failureResult } from './failures.js';
import { outputSchema, type AgentteamTool } from './tool.js';

export const messageReact: AgentteamTool = {
  def: {
    name: 'message_react',
    description: 'React to a message with an emoji; remove:true removes yours.',
    inputSchema: {
      type: 'object',
      properties: { messageId: { type: 'string', minLength: 1 }, emoji: { type: 'string', minLength: 1, maxLength: EMOJI.chars }, remove: { type: 'boolean' } },
      required: ['messageId', 'emoji'],
      additionalProperties: false,
    },
    outputSchema: outputSchema({ properties: { id: { type: 'string' }, reactions: REACTIONS_SCHEMA }, required: ['id', 'reactions'] }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  async run(ctx, args) {
    try {
      const input: { messageId: string; emoji: string; remove?: boolean } = { messageId: args.messageId as string, emoji: args.emoji as string };
      if (args.remove === true) input.remove = true;
      const m = await ctx.api.messages.react(input, { signal: ctx.signal });
      return toolResult({ id: m.id, reactions: reactionCounts(m.reactions) });
    } catch (e) {
      return failureResult(e);
    }
  },
};
