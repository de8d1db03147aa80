// Owns the `message` server routes: send (attachments by upload id), list, reactions, attachment metadata, and the two
// streamed attachment routes (upload: raw body → chunk rows; download: chunk rows → raw body).
import type { ServerResponse } from 'node:http';
import type { Static } from '@sinclair/typebox';
import { AppError } from '../../shared/errors.js';
import { limitOf, STREAMED, type DomainRoute } from '../../server/http/route.js';
import { checkUploadMeta } from './attachments.js';
import { ReactBody, SendMessageBody } from './contract.js';
import type { Messages } from './service.js';

/** Resolves once `res` can take more, rejects when the client went away (so a slow reader holds one chunk at most). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => (res.off('drain', done), res.off('close', gone), resolve());
    const gone = () => (res.off('drain', done), res.off('close', gone), reject(new Error('client went away')));
    res.on('drain', done);
    res.on('close', gone);
  });
}

export const ROUTES: readonly DomainRoute<Messages>[] = [
  {
    method: 'POST',
    path: '/v1/messages',
    body: SendMessageBody,
    handle: (c, s) => {
      const body = c.body as Static<typeof SendMessageBody>;
      const input: Parameters<Messages['send']>[1] = { target: body.target, content: body.content };
      if (body.replyTo !== undefined) input.replyTo = body.replyTo;
      if (body.attachmentIds !== undefined) input.attachmentIds = body.attachmentIds;
      if (body.kind !== undefined) input.kind = body.kind;
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
  { method: 'GET', path: '/v1/attachments/{attachmentId}', handle: (c, s) => s.getAttachment(c.actor, c.params.attachmentId!) },
  {
    // ?name&contentType, application/octet-stream, Content-Length ≤ 10 MiB → an upload id, claimable for 15 min.
    method: 'POST',
    path: '/v1/attachments',
    query: ['name', 'contentType'],
    stream: true,
    async handle(c, s) {
      const req = c.req!;
      if (!/^application\/octet-stream\s*(;|$)/i.test(req.headers['content-type'] ?? '')) throw new AppError('invalid_input', 'an upload body must be application/octet-stream');
      const len = req.headers['content-length'];
      // Security invariant: the size is known and within 10 MiB before a body byte is read (no chunked uploads).
      if (len === undefined || !/^[0-9]{1,12}$/.test(len)) throw new AppError('invalid_input', 'an upload needs a Content-Length');
      const meta = checkUploadMeta({ name: c.query.name, contentType: c.query.contentType, size: Number(len) });
      return s.attachments.upload(c.actor, meta, req, (e) => req.destroy(e));
    },
  },
  {
    method: 'GET',
    path: '/v1/attachments/{attachmentId}/content',
    stream: true,
    async handle(c, s) {
      const res = c.res!;
      const meta = await s.getAttachment(c.actor, c.params.attachmentId!);
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': meta.size,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'x-attachment-id': meta.id,
        'x-attachment-name': encodeURIComponent(meta.name),
        'x-attachment-content-type': meta.contentType,
      });
      let sent = 0;
      try {
        for await (const chunk of s.attachments.chunks(meta.id)) {
          sent += chunk.length;
          if (sent > meta.size) break;
          if (!res.write(chunk)) await drained(res);
        }
      } catch {
        sent = -1;
      }
      // A short or long body is cut, never completed: the client sees the Content-Length mismatch.
      if (sent === meta.size) res.end();
      else res.destroy();
      return STREAMED;
    },
  },
];
