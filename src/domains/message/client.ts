// Owns the daemon's `message` client: `api.messages.*` (send, newest-first list, reactions, streamed attachment upload and read).
import { qs, seg, type CallOptions, type Send } from '../../server-client/send.js';
import type { AttachmentMeta, MessageDto, MessagePage, NewAttachment } from './contract.js';
import { checkText } from '../../shared/bounds.js';
import { CONTENT, EMOJI } from './contract.js';

export interface MessageApi {
  /** Targets are exact canonical strings; the server authorizes membership. */
  /** attachmentIds: the caller's own uploads (upload), at most 4, each claimable once within 15 minutes. */
  /** kind 'notice': the daemon's own system notice as the agent (turn engine only; no runtime tool passes it). */
  send(input: { target: string; content: string; replyTo?: string; attachmentIds?: string[]; kind?: 'notice' }, o?: CallOptions): Promise<MessageDto>;
  /** Newest first. limit 1..100, default 20. */
  list(input: { target: string; limit?: number; cursor?: string }, o?: CallOptions): Promise<MessagePage>;
  react(input: { messageId: string; emoji: string; remove?: boolean }, o?: CallOptions): Promise<MessageDto>;
  /** Streams one attachment (≤ 10 MiB) to the server; the returned id is what send references. */
  upload(input: NewAttachment, o?: CallOptions): Promise<AttachmentMeta>;
  getAttachment(attachmentId: string, o?: CallOptions): Promise<AttachmentMeta>;
  /** Streams an attachment's bytes into `consume`; the body throws if it arrives short or long. */
  read<R>(attachmentId: string, consume: (meta: AttachmentMeta, body: AsyncIterable<Buffer>) => Promise<R>, o?: CallOptions): Promise<R>;
}

export function messageClient(send: Send): MessageApi {
  return {
    // The server enforces every bound; the daemon checks the same contract first so an oversized field never travels.
    send: async (input, o) => {
      checkText(input.content, { ...CONTENT, min: input.attachmentIds?.length ? 0 : 1 });
      const body: Record<string, unknown> = { target: input.target, content: input.content };
      if (input.replyTo !== undefined) body.replyTo = input.replyTo;
      if (input.attachmentIds !== undefined) body.attachmentIds = input.attachmentIds;
      if (input.kind !== undefined) body.kind = input.kind;
      return send({ method: 'POST', path: '/v1/messages', body, opts: o });
    },
    list: (input, o) => send({ method: 'GET', path: `/v1/messages${qs({ target: input.target, limit: input.limit, cursor: input.cursor })}`, opts: o }),
    react: async (input, o) => {
      checkText(input.emoji, EMOJI);
      const body: Record<string, unknown> = { emoji: input.emoji };
      if (input.remove !== undefined) body.remove = input.remove;
      return send({ method: 'POST', path: `/v1/messages/${seg(input.messageId, 'messageId')}/reactions`, body, opts: o });
    },
    upload: (input, o) => send.streams.upload<AttachmentMeta>(`/v1/attachments${qs({ name: input.name, contentType: input.contentType })}`, input.size, input.body, o),
    getAttachment: (attachmentId, o) => send<AttachmentMeta>({ method: 'GET', path: `/v1/attachments/${seg(attachmentId, 'attachmentId')}`, opts: o }),
    read: (attachmentId, consume, o) => send.streams.download(`/v1/attachments/${seg(attachmentId, 'attachmentId')}/content`, consume, o),
  };
}
