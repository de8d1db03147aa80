// Owns the model-visible projection of messages (distinct from MessageDto) and the JSON Schema that describes exactly it.
import { authorLabel, compactTime } from '../../shared/compact.js';
import type { AttachmentMeta, MessageDto, ReactionDto } from './contract.js';

/**
 * One message as a model reads it. The target is the one asked for, so it is not repeated; empty lists and nulls are
 * omitted; reactions are counts per emoji (member ids are not needed by any later call). `id` is what message_react,
 * replyTo and `thread:<channelId>/<id>` take; a file's `id` is what message_attachment_read takes.
 */
export interface MessageView {
  id: string;
  by: string;
  at: string;
  content: string;
  replyTo?: string;
  reactions?: Record<string, number>;
  files?: { id: string; name: string; type: string; size: number }[];
}

export function reactionCounts(list: ReactionDto[]): Record<string, number> {
  return Object.fromEntries(list.map((r) => [r.emoji, r.count]));
}

function file(a: AttachmentMeta): { id: string; name: string; type: string; size: number } {
  return { id: a.id, name: a.name, type: a.contentType, size: a.size };
}

export function projectMessage(m: MessageDto): MessageView {
  const v: MessageView = { id: m.id, by: authorLabel(m.author), at: compactTime(m.createdAt), content: m.content };
  if (m.replyTo !== null) v.replyTo = m.replyTo;
  if (m.reactions.length > 0) v.reactions = reactionCounts(m.reactions);
  if (m.attachments.length > 0) v.files = m.attachments.map(file);
  return v;
}

const S = { type: 'string' } as const;
/** Reactions as {emoji: count}. */
export const REACTIONS_SCHEMA = { type: 'object', additionalProperties: { type: 'integer' } } as const;

/** Exactly MessageView; kept terse because it is sent on every tools/list. */
export const MESSAGE_VIEW_SCHEMA = {
  type: 'object',
  properties: {
    id: S,
    by: S,
    at: S,
    content: S,
    replyTo: S,
    reactions: REACTIONS_SCHEMA,
    files: {
      type: 'array',
      items: { type: 'object', properties: { id: S, name: S, type: S, size: { type: 'integer' } } },
    },
  },
  required: ['id', 'by', 'at', 'content'],
  additionalProperties: false,
} as const;
