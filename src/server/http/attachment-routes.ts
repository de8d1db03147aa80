// Owns the server's two streamed routes: an attachment upload (raw body → chunk rows) and an attachment download (chunk rows → raw body).
//
// | method | path                                   | auth   | request                                         | response                          |
// | ------ | -------------------------------------- | ------ | ----------------------------------------------- | --------------------------------- |
// | POST   | /v1/attachments                        | member | ?name&contentType, application/octet-stream,    | {ok, data: AttachmentMeta}        |
// |        |                                        |        | Content-Length ≤ 10 MiB                         | (an upload id, claimable 15 min)  |
// | GET    | /v1/attachments/{attachmentId}/content | member |                                                 | the bytes; x-attachment-* headers |
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../../shared/errors.js';
import type { ServerDomains } from '../app.js';
import type { Actor } from '../domains/context.js';
import { checkUploadMeta } from '../domains/attachments.js';

/** Returned by a stream route that has written its own response. */
export const STREAMED = Symbol('streamed');

export interface StreamRouteContext {
  actor: Actor;
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  req: IncomingMessage;
  res: ServerResponse;
}

export interface StreamRouteDef {
  method: 'GET' | 'POST';
  path: string;
  query?: readonly string[];
  /** The data of an ok envelope, or STREAMED when the route answered itself. */
  handle(ctx: StreamRouteContext, d: ServerDomains): Promise<unknown>;
}

/** Resolves once `res` can take more, rejects when the client went away (so a slow reader holds one chunk at most). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => (res.off('drain', done), res.off('close', gone), resolve());
    const gone = () => (res.off('drain', done), res.off('close', gone), reject(new Error('client went away')));
    res.on('drain', done);
    res.on('close', gone);
  });
}

export const STREAM_ROUTES: readonly StreamRouteDef[] = [
  {
    method: 'POST',
    path: '/v1/attachments',
    query: ['name', 'contentType'],
    async handle(c, d) {
      if (!/^application\/octet-stream\s*(;|$)/i.test(c.req.headers['content-type'] ?? '')) throw new AppError('invalid_input', 'an upload body must be application/octet-stream');
      const len = c.req.headers['content-length'];
      // Security invariant: the size is known and within 10 MiB before a body byte is read (no chunked uploads).
      if (len === undefined || !/^[0-9]{1,12}$/.test(len)) throw new AppError('invalid_input', 'an upload needs a Content-Length');
      const meta = checkUploadMeta({ name: c.query.name, contentType: c.query.contentType, size: Number(len) });
      return d.attachments.upload(c.actor, meta, c.req, (e) => c.req.destroy(e));
    },
  },
  {
    method: 'GET',
    path: '/v1/attachments/{attachmentId}/content',
    async handle(c, d) {
      const meta = await d.messages.getAttachment(c.actor, c.params.attachmentId!);
      c.res.writeHead(200, {
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
        for await (const chunk of d.attachments.chunks(meta.id)) {
          sent += chunk.length;
          if (sent > meta.size) break;
          if (!c.res.write(chunk)) await drained(c.res);
        }
      } catch {
        sent = -1;
      }
      // A short or long body is cut, never completed: the client sees the Content-Length mismatch.
      if (sent === meta.size) c.res.end();
      else c.res.destroy();
      return STREAMED;
    },
  },
];
