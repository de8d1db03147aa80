// Owns the daemon's `message` client: `api.messages.*` (send with attachments, newest-first list, reactions, attachment reads).
import { qs, seg, type CallOptions, type Send } from '../../server-client/send.js';
import type { AttachmentMeta, MessageDto, MessagePage, NewAttachment } from './contract.js';

export interface MessageApi {
  /** Targets are exact canonical strings; the server authorizes membership. */
  send(input: { target: string; content: string; replyTo?: string; attachments?: NewAttachment[] }, o?: CallOptions): Promise<MessageDto>;
  /** Newest first. limit 1..100, default 20. */
  list(input: { target: string; limit?: number; cursor?: string }, o?: CallOptions): Promise<MessagePage>;
  react(input: { messageId: string; emoji: string; remove?: boolean }, o?: CallOptions): Promise<MessageDto>;
  getAttachment(attachmentId: string, o?: CallOptions): Promise<AttachmentMeta & { data: Buffer }>;
}

export function messageClient(send: Send): MessageApi {
  return {
    send: (input, o) => {
      const body: Record<string, unknown> = { target: input.target, content: input.content };
      if (input.replyTo !== undefined) body.replyTo = input.replyTo;
      if (input.attachments !== undefined) {
        body.attachments = input.attachments.map((a) => ({ name: a.name, contentType: a.contentType, data: Buffer.from(a.data).toString('base64') }));
      }
      return send({ method: 'POST', path: '/v1/messages', body, opts: o });
    },
    list: (input, o) => send({ method: 'GET', path: `/v1/messages${qs({ target: input.target, limit: input.limit, cursor: input.cursor })}`, opts: o }),
    react: (input, o) => {
      const body: Record<string, unknown> = { emoji: input.emoji };
      if (input.remove !== undefined) body.remove = input.remove;
      return send({ method: 'POST', path: `/v1/messages/${seg(input.messageId, 'messageId')}/reactions`, body, opts: o });
    },
    getAttachment: async (attachmentId, o) => {
      const a = await send<AttachmentMeta & { data: string }>({ method: 'GET', path: `/v1/attachments/${seg(attachmentId, 'attachmentId')}`, opts: o });
      return { ...a, data: Buffer.from(a.data, 'base64') };
    },
  };
}
