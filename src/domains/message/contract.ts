// Owns the `message` domain contract: message, reaction and attachment DTOs, every bound, and the message server calls.
import { Type } from '@sinclair/typebox';
import { Strict } from '../../catalog/schemas.js';
import { endpoints } from '../../shared/endpoint.js';
import { ID_PATTERN } from '../../shared/ids.js';
import type { Page } from '../../shared/page.js';
import type { MemberKind } from '../member/contract.js';
import { TARGET_MAX } from '../../shared/target.js';
import type { TextBound } from '../../shared/bounds.js';

export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024; // 10 MiB each
export const MAX_ATTACHMENTS = 4; // per message
/** Reactions (member × emoji pairs) per message: bounds both distinct emojis and reactors per emoji. */
export const MAX_REACTIONS = 20;
/** New threads (first messages in a thread target) one member may start per THREAD_WINDOW_MS: a person or an agent in a
 * busy channel stays far below it; a flood of threads (each a turn for every agent there) stops at it. */
export const THREADS_STARTED_MAX = 30;
export const THREAD_WINDOW_MS = 60_000;
/** Message text fields in characters and serialized JSON bytes (the one place; server and daemon check these). */
export const CONTENT = { field: 'content', min: 1, chars: 8000, bytes: 8000 } as const satisfies TextBound;
export const ATTACHMENT_NAME = { field: 'attachment name', min: 1, chars: 255, bytes: 255 } as const satisfies TextBound;
export const CONTENT_TYPE_MAX = 255;
export const EMOJI = { field: 'emoji', min: 1, chars: 64, bytes: 64 } as const satisfies TextBound;
export const MAX_CONTENT_CHARS = CONTENT.chars;
export const ATTACHMENT_NAME_MAX = ATTACHMENT_NAME.chars;
export const EMOJI_MAX = EMOJI.chars;

export interface AttachmentMeta {
  id: string;
  name: string;
  contentType: string;
  size: number;
}

export interface ReactionDto {
  emoji: string;
  count: number;
  memberIds: string[];
}

export interface MessageDto {
  id: string;
  /** The exact canonical target, e.g. channel:general, thread:general/msg3104. */
  target: string;
  author: { id: string; name: string; kind: MemberKind };
  content: string;
  replyTo: string | null;
  createdAt: string;
  reactions: ReactionDto[];
  attachments: AttachmentMeta[];
  /** Present only on a system notice (a failure, loop or backlog notice the daemon posted as the agent): it starts no turn. */
  kind?: 'notice';
}

export interface MessagePage extends Page {
  messages: MessageDto[];
}

/** An attachment to upload: exactly `size` bytes from `body`, streamed (never one whole-file buffer in JSON). */
export interface NewAttachment {
  name: string;
  contentType: string;
  size: number;
  body: AsyncIterable<Buffer>;
}

const Message = Type.Unsafe<MessageDto>();

/** The message server calls with JSON bodies (each a route and a method of `api.messages`); the streamed attachment upload and download are hand-written beside them (index.ts). */
export const MESSAGE = endpoints({
  /**
   * Targets are exact canonical strings; the server authorizes membership. attachmentIds: the caller's own uploads, at
   * most 4, each claimable once within 15 minutes. kind 'notice': the daemon's own system notice as the agent (turn
   * engine only; no runtime tool passes it).
   */
  send: {
    method: 'POST',
    path: '/v1/messages',
    body: Strict({
      target: Type.String({ minLength: 1, maxLength: TARGET_MAX }),
      content: Type.String({ maxLength: MAX_CONTENT_CHARS }),
      replyTo: Type.Optional(Type.String({ pattern: ID_PATTERN })),
      /** Completed uploads of the sender (POST /v1/attachments), claimed by this message. */
      attachmentIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: MAX_ATTACHMENTS })),
      /** Only an agent's own daemon (the agent's server credential, never model-visible) marks its message a system notice. */
      kind: Type.Optional(Type.Literal('notice')),
    }),
    output: Message,
  },
  /** Newest first. limit 1..100, default 20. */
  list: { method: 'GET', path: '/v1/messages', query: Type.Object({ target: Type.String(), limit: Type.Optional(Type.Integer()), cursor: Type.Optional(Type.String()) }), output: Type.Unsafe<MessagePage>() },
  react: { method: 'POST', path: '/v1/messages/{messageId}/reactions', body: Strict({ emoji: Type.String({ minLength: 1, maxLength: EMOJI_MAX }), remove: Type.Optional(Type.Boolean()) }), output: Message, bounds: { emoji: EMOJI } },
  getAttachment: { method: 'GET', path: '/v1/attachments/{attachmentId}', output: Type.Unsafe<AttachmentMeta>() },
});
