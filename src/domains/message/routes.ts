// Owns the `message` server routes: send (base64 attachments, larger body cap), list, reactions, attachment reads.
import type { Static } from '@sinclair/typebox';
import { AppError } from '../../shared/errors.js';
import { limitOf, type DomainRoute } from '../../server/http/route.js';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, ReactBody, SendMessageBody, type NewAttachment } from './contract.js';
import type { Messages } from './service.js';

const B64_RE = /^[A-Za-z0-9+/]*={0,2}$/;
const MAX_B64 = Math.ceil(MAX_ATTACHMENT_BYTES / 3) * 4;
/** Four base64 attachments at the cap plus room for the rest of the message. */
export const SEND_MAX_BODY = MAX_ATTACHMENTS * MAX_B64 + 1024 * 1024;

function decodeAttachments(list: Static<typeof SendMessageBody>['attachments']): NewAttachment[] | undefined {
  if (list === undefined) return undefined;
  return list.map((a) => {
    if (a.data.length % 4 !== 0 || !B64_RE.test(a.data)) throw new AppError('validation_failed', 'attachment data must be standard padded base64');
    const pad = a.data.endsWith('==') ? 2 : a.data.endsWith('=') ? 1 : 0;
    if ((a.data.length / 4) * 3 - pad > MAX_ATTACHMENT_BYTES) throw new AppError('payload_too_large', `an attachment exceeds ${MAX_ATTACHMENT_BYTES} bytes (10 MiB)`);
    return { name: a.name, contentType: a.contentType, data: Buffer.from(a.data, 'base64') };
  });
}

export const ROUTES: readonly DomainRoute<Messages>[] = [
  {
    method: 'POST',
    path: '/v1/messages',
    body: SendMessageBody,
    maxBody: SEND_MAX_BODY,
    handle: (c, s) => {
      const body = c.body as Static<typeof SendMessageBody>;
      const input: Parameters<Messages['send']>[1] = { target: body.target, content: body.content };
      if (body.replyTo !== undefined) input.replyTo = body.replyTo;
      const atts = decodeAttachments(body.attachments);
      if (atts) input.attachments = atts;
      return s.send(c.actor, input);
    },
  },
  { method: 'GET', path: '/v1/messages', query: ['target', 'limit', 'cursor'], handle: (c, s) => s.list(c.actor, { target: c.query.target ?? '', limit: limitOf(c.query), cursor: c.query.cursor }) },
  {
    method: 'POST',
    path: '/v1/messages/{messageId}/reactions',
    body: ReactBody,
    handle: (c, s) => s.react(c.actor, { messageId: c.params.messageId!, emoji: c.body.emoji, remove: c.body.remove ?? false }),
  },
  {
    method: 'GET',
    path: '/v1/attachments/{attachmentId}',
    handle: async (c, s) => {
      const a = await s.getAttachment(c.actor, c.params.attachmentId!);
      return { id: a.id, name: a.name, contentType: a.contentType, size: a.size, data: a.data.toString('base64') };
    },
  },
];
