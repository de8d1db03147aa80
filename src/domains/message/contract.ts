// Owns the `message` domain contract: message, reaction and attachment DTOs, request bodies and every bound.
import { Type } from '@sinclair/typebox';
import { ID_PATTERN } from '../../shared/ids.js';
import type { Page } from '../../shared/page.js';
import type { MemberKind } from '../member/contract.js';
import { TARGET_MAX } from '../channel/target.js';

export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024; // 10 MiB each
export const MAX_ATTACHMENTS = 4; // per message
export const MAX_CONTENT_CHARS = 32_000;
export const ATTACHMENT_NAME_MAX = 255;
export const EMOJI_MAX = 64;

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
  /** The exact canonical target, e.g. channel:general, thread:general/msg_x. */
  target: string;
  author: { id: string; name: string; kind: MemberKind };
  content: string;
  replyTo: string | null;
  createdAt: string;
  reactions: ReactionDto[];
  attachments: AttachmentMeta[];
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

const strict = { additionalProperties: false } as const;
export const SendMessageBody = Type.Object(
  {
    target: Type.String({ minLength: 1, maxLength: TARGET_MAX }),
    content: Type.String({ maxLength: MAX_CONTENT_CHARS }),
    replyTo: Type.Optional(Type.String({ pattern: ID_PATTERN })),
    /** Completed uploads of the sender (POST /v1/attachments), claimed by this message. */
    attachmentIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: MAX_ATTACHMENTS })),
  },
  strict,
);
export const ReactBody = Type.Object({ emoji: Type.String({ minLength: 1, maxLength: EMOJI_MAX }), remove: Type.Optional(Type.Boolean()) }, strict);
