// Owns the `message` calls that do not fit a JSON endpoint: the streamed attachment upload (raw body → chunk rows) and
// download (chunk rows → raw body), server routes and daemon client calls, and the send call's attachment-aware bound.
import type { ServerResponse } from 'node:http';
import { AppError } from '../../shared/errors.js';
import { checkText } from '../../shared/bounds.js';
import { qs, seg, type CallOptions, type Send } from '../../server-client/send.js';
import type { ClientOf } from '../../server-client/derive.js';
import { STREAMED, type DomainRoute } from '../../server/http/route.js';
import { checkUploadMeta } from './attachments.js';
import { CONTENT, type AttachmentMeta, type MESSAGE, type NewAttachment } from './contract.js';
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

export const STREAMED_ROUTES: readonly DomainRoute<Messages>[] = [
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
      const meta = await s.getAttachment(c.actor, { attachmentId: c.params.attachmentId! });
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

/** The daemon's hand-written message calls, spread over the derived ones. */
export function streamedCalls(send: Send, derived: ClientOf<typeof MESSAGE>) {
  return {
    /** The content bound depends on the attachments (empty content only with one); checked before anything travels. */
    send: (input: Parameters<typeof derived.send>[0], o?: CallOptions) => (checkText(input.content, { ...CONTENT, min: input.attachmentIds?.length ? 0 : 1 }), derived.send(input, o)),
    /** Streams one attachment (≤ 10 MiB) to the server; the returned id is what send references. */
    upload: (input: NewAttachment, o?: CallOptions) => send.streams.upload<AttachmentMeta>(`/v1/attachments${qs({ name: input.name, contentType: input.contentType })}`, input.size, input.body, o),
    /** Streams an attachment's bytes into `consume`; the body throws if it arrives short or long. */
    read: <R>(attachmentId: string, consume: (meta: AttachmentMeta, body: AsyncIterable<Buffer>) => Promise<R>, o?: CallOptions): Promise<R> =>
      send.streams.download(`/v1/attachments/${seg(attachmentId, 'attachmentId')}/content`, consume, o),
  };
}
