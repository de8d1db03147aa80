// Owns the model-visible projection of messages and message pages (distinct from MessageDto) and the JSON Schema that describes exactly it.
import { pagePeople, pageTimes } from '../../shared/compact.js';
import type { AttachmentMeta, MessageDto, ReactionDto } from './contract.js';

/**
 * One message as a model reads it. The target is the one asked for, so it is not repeated; empty lists and nulls are
 * omitted; reactions are counts per emoji (member ids are not needed by any later call). `by` is the author's display
 * name; its kind is said once per page in `authors`. `at` is the compact time (`20261201T103335Z`); a message on
 * the same UTC day as the one above it on the page says only the time of day (`103335`), so the date is read once per
 * day, never guessed. `id` is what message_react, replyTo and `thread:<channelId>/<id>` take; a file's `id` is what
 * message_attachment_read takes.
 */
export interface MessageView {
  id: string;
  by: string;
  at: string;
  content: string;
  replyTo?: string;
  reactions?: Record<string, number>;
  files?: { id: string; name: string; type: string; size: number }[];
  /** Only on a system notice the daemon posted as the agent (a failure, loop or backlog notice). */
  kind?: 'notice';
}

/** A page of messages: each author's kind once (name → kind), instead of on every message. */
export interface MessagePageView {
  messages: MessageView[];
  authors: Record<string, string>;
}

export function reactionCounts(list: ReactionDto[]): Record<string, number> {
  return Object.fromEntries(list.map((r) => [r.emoji, r.count]));
}

function file(a: AttachmentMeta): { id: string; name: string; type: string; size: number } {
  return { id: a.id, name: a.name, type: a.contentType, size: a.size };
}

function projectMessage(m: MessageDto, by: string, at: string): MessageView {
  const v: MessageView = { id: m.id, by, at, content: m.content };
  if (m.replyTo !== null) v.replyTo = m.replyTo;
  if (m.reactions.length > 0) v.reactions = reactionCounts(m.reactions);
  if (m.attachments.length > 0) v.files = m.attachments.map(file);
  if (m.kind === 'notice') v.kind = 'notice';
  return v;
}

/**
 * Projects one page. A display name that two kinds share on the page (an agent and a Human both called "ops") is not
 * put in `authors`; those messages say `name (kind)` instead, so the kind is never ambiguous.
 */
export function projectMessagePage(list: readonly MessageDto[]): MessagePageView {
  const people = pagePeople(list.map((m) => m.author));
  const at = pageTimes();
  const messages = list.map((m) => projectMessage(m, people.label(m.author), at(m.createdAt)));
  return { messages, authors: people.authors };
}

const S = { type: 'string' } as const;
/** Reactions as {emoji: count} (the values are left out of the schema: it is sent on every tools/list). */
export const REACTIONS_SCHEMA = { type: 'object' } as const;

/**
 * MessageView's properties; kept terse (not closed with additionalProperties) because it is sent on every tools/list.
 * `kind` ("notice", on a system notice only) is left out for the same reason; the open schema admits it.
 */
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
} as const;

/** The page's `authors`: display name → human or agent (the values are left out of the schema: it is sent on every tools/list). */
export const AUTHORS_SCHEMA = { type: 'object' } as const;
