// Owns messages on exact targets: send (with attachments), newest-first keyset listing, reactions, attachment reads.
import { AppError } from '../../shared/errors.js';
import { ID_RE, iso, type Actor, type DomainDeps } from '../../server/context.js';
import { listPage, normalizeLimit, type Ordering } from '../../server/pagination.js';
import type { Sql } from '../../server/store/types.js';
import { authorizeTarget } from '../channel/authorize.js';
import { parseTarget } from '../../shared/target.js';
import { checkText, clipText } from '../../shared/bounds.js';
import { shownName } from '../member/names.js';
import { Attachments, checkAttachmentIds } from './attachments.js';
import { ATTACHMENT_NAME, CONTENT, CONTENT_TYPE_MAX, EMOJI, MAX_ATTACHMENTS, MAX_REACTIONS, type AttachmentMeta, type MessageDto, type MessagePage, type ReactionDto } from './contract.js';
import { markPending } from '../turn/service.js';
import { checkThreadRoom, noteThreadStart } from './threads.js';

interface MessageRow {
  id: string;
  target: string;
  author_id: string;
  content: string;
  reply_to: string | null;
  created_at: number;
  author_name: string;
  author_kind: 'human' | 'agent';
  author_removed_at: number | null;
  kind: string;
}

const MESSAGE_COLS = 'm.id, m.target, m.author_id, m.content, m.reply_to, m.created_at, m.kind, a.name AS author_name, a.kind AS author_kind, a.removed_at AS author_removed_at';
const MESSAGE_FROM = 'messages m JOIN members a ON a.id = m.author_id';
const SELECT_MESSAGE = `SELECT ${MESSAGE_COLS} FROM ${MESSAGE_FROM}`;

/** Newest first within one target; messages never move (createdAt is immutable). */
export const MESSAGE_ORDER: Ordering = {
  collection: 'messages',
  keys: [
    { column: 'm.created_at', field: 'created_at', dir: 'DESC', type: 'timestamp' },
    { column: 'm.id', field: 'id', dir: 'DESC', type: 'text' },
  ],
};

/** The page query of one target (exported for the query-plan test). */
export const messagePageQuery = (target: string) => ({ ordering: MESSAGE_ORDER, columns: MESSAGE_COLS, from: MESSAGE_FROM, where: 'm.target = ?', params: [target], filter: { target } });

/** `?, ?, …` for ids padded (by repeating the last) to a power of two, so a page's IN lists reuse a few prepared statements. */
function inList(ids: string[]): { marks: string; params: string[] } {
  let n = 1;
  while (n < ids.length) n *= 2;
  const params = ids.slice();
  while (params.length < n) params.push(ids[ids.length - 1]!);
  return { marks: params.map(() => '?').join(', '), params };
}

/**
 * Reactions and attachments for a page of messages: one query each, grouped by message; per-message order unchanged.
 * Rows over today's bounds (stored by older versions) read back bounded: text clipped with a marker, at most
 * MAX_REACTIONS reactors listed per message (each emoji's count stays exact) and MAX_ATTACHMENTS attachments.
 */
async function hydrate(sql: Sql, rows: MessageRow[]): Promise<MessageDto[]> {
  if (rows.length === 0) return [];
  const ids = inList([...new Set(rows.map((r) => r.id))]);
  const reacts = await sql.all<{ message_id: string; emoji: string; member_id: string }>(
    `SELECT message_id, emoji, member_id FROM reactions WHERE message_id IN (${ids.marks}) ORDER BY message_id ASC, emoji ASC, created_at ASC, member_id ASC`,
    ids.params,
  );
  const reactionsOf = new Map<string, Map<string, ReactionDto>>();
  const listed = new Map<string, number>();
  for (const x of reacts) {
    let byEmoji = reactionsOf.get(x.message_id);
    if (!byEmoji) reactionsOf.set(x.message_id, (byEmoji = new Map()));
    const n = listed.get(x.message_id) ?? 0;
    const d = byEmoji.get(x.emoji);
    if (d) d.count++;
    if (n >= MAX_REACTIONS) continue;
    listed.set(x.message_id, n + 1);
    if (d) d.memberIds.push(x.member_id);
    else byEmoji.set(x.emoji, { emoji: clipText(x.emoji, EMOJI.bytes), count: 1, memberIds: [x.member_id] });
  }
  const atts = await sql.all<{ message_id: string; id: string; name: string; content_type: string; size: number }>(
    `SELECT message_id, id, name, content_type, size FROM attachments WHERE message_id IN (${ids.marks}) ORDER BY message_id ASC, position ASC`,
    ids.params,
  );
  const attachmentsOf = new Map<string, AttachmentMeta[]>();
  for (const a of atts) {
    let list = attachmentsOf.get(a.message_id);
    if (!list) attachmentsOf.set(a.message_id, (list = []));
    if (list.length < MAX_ATTACHMENTS) list.push({ id: a.id, name: clipText(a.name, ATTACHMENT_NAME.bytes), contentType: clipText(a.content_type, CONTENT_TYPE_MAX), size: a.size });
  }
  return rows.map((r) => {
    const m: MessageDto = {
      id: r.id,
      target: r.target,
      author: { id: r.author_id, name: shownName(r.author_name, r.author_id, r.author_removed_at), kind: r.author_kind },
      content: clipText(r.content, CONTENT.bytes),
      replyTo: r.reply_to,
      createdAt: iso(r.created_at),
      reactions: [...(reactionsOf.get(r.id)?.values() ?? [])],
      attachments: attachmentsOf.get(r.id) ?? [],
    };
    if (r.kind === 'notice') m.kind = 'notice';
    return m;
  });
}

export class Messages {
  constructor(
    private readonly deps: DomainDeps,
    readonly attachments: Attachments = new Attachments(deps),
  ) {}

  /** Inserts one message on an already-authorized canonical target. Used by send and by task comments. */
  async insert(sql: Sql, actor: Actor, target: string, content: string, replyTo: string | null, attachmentIds: readonly string[], kind: 'message' | 'notice' = 'message'): Promise<MessageDto> {
    const id = await this.deps.ids.next(sql, 'msg');
    await sql.run('INSERT INTO messages (id, target, author_id, content, reply_to, created_at, kind) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      id,
      target,
      actor.id,
      content,
      replyTo,
      this.deps.clock.now(),
      kind,
    ]);
    // Every message is marked for the turn feed in its own transaction: committed together, or not at all.
    await markPending(sql, id, this.deps.clock.now(), this.deps.store.feedOrigin);
    if (target.startsWith('thread:')) await noteThreadStart(sql, actor.id, target, this.deps.clock.now());
    // Push: waiting turn reads in this process wake once this transaction has committed (so they see the message).
    const feed = this.deps.feed;
    if (feed && sql.afterCommit) sql.afterCommit(() => feed.notify());
    else feed?.notify();
    await this.attachments.claim(sql, actor, attachmentIds, id);
    const row = await sql.get<MessageRow>(`${SELECT_MESSAGE} WHERE m.id = ?`, [id]);
    return (await hydrate(sql, [row!]))[0]!;
  }

  /** Attachments are the actor's own completed uploads, referenced by id (see attachments.ts). */
  async send(actor: Actor, input: { target: string; content: string; replyTo?: string; attachmentIds?: string[]; kind?: 'notice' }): Promise<MessageDto> {
    if (input.kind !== undefined && input.kind !== 'notice') throw new AppError('validation_failed', 'kind must be notice');
    // Security invariant: only an agent marks its own message a notice. Its server credential is held by its daemon and is
    // never model-visible, and no runtime tool forwards `kind`, so a notice is always the daemon's own.
    if (input.kind === 'notice' && actor.kind !== 'agent') throw new AppError('denied', 'only an agent\'s daemon posts notices');
    const t = parseTarget(input.target);
    const attachments = checkAttachmentIds(input.attachmentIds);
    const content = checkText(input.content, { ...CONTENT, min: attachments.length ? 0 : 1 });
    if (input.replyTo !== undefined && (typeof input.replyTo !== 'string' || !ID_RE.test(input.replyTo))) throw new AppError('validation_failed', 'replyTo must be a message id');
    return this.deps.store.tx(async (sql) => {
      const target = await authorizeTarget(sql, actor, t);
      if (input.replyTo !== undefined) {
        // A reply points at a message of the same target (or, in a thread, at its root).
        const parent = await sql.get<{ target: string }>('SELECT target FROM messages WHERE id = ?', [input.replyTo]);
        const ok = parent && (parent.target === target || (t.kind === 'thread' && input.replyTo === t.rootId));
        if (!ok) throw new AppError('not_found', 'replyTo message not found in this target');
      }
      if (t.kind === 'thread') await checkThreadRoom(sql, actor.id, target, this.deps.clock.now());
      return this.insert(sql, actor, target, content, input.replyTo ?? null, attachments, input.kind ?? 'message');
    });
  }

  /** Newest first: createdAt DESC, id DESC. */
  async list(actor: Actor, input: { target: string; limit?: number; cursor?: string }): Promise<MessagePage> {
    const t = parseTarget(input.target);
    normalizeLimit(input.limit);
    return this.deps.store.tx(async (sql) => {
      const target = await authorizeTarget(sql, actor, t);
      return listPage(sql, this.deps.cursors, 'messages', { ...messagePageQuery(target), limit: input.limit, cursor: input.cursor }, (rows: MessageRow[]) => hydrate(sql, rows));
    });
  }

  /** Adds (idempotently) or removes the actor's reaction; the message's target must be readable by the actor. */
  async react(actor: Actor, input: { messageId: string; emoji: string; remove?: boolean }): Promise<MessageDto> {
    const emoji = checkText(input.emoji, EMOJI);
    if (/\s/.test(emoji)) throw new AppError('validation_failed', 'emoji must not contain whitespace');
    return this.deps.store.tx(async (sql) => {
      const msg = await this.readable(sql, actor, input.messageId);
      if (input.remove) await sql.run('DELETE FROM reactions WHERE message_id = ? AND member_id = ? AND emoji = ?', [msg.id, actor.id, emoji]);
      else if (!(await sql.get('SELECT 1 AS x FROM reactions WHERE message_id = ? AND member_id = ? AND emoji = ?', [msg.id, actor.id, emoji]))) {
        const n = Number((await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM reactions WHERE message_id = ?', [msg.id]))?.n ?? 0);
        if (n >= MAX_REACTIONS) throw new AppError('validation_failed', `reactions: a message has at most ${MAX_REACTIONS} (member, emoji) reactions`);
        await sql.run('INSERT INTO reactions (message_id, member_id, emoji, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING', [
          msg.id,
          actor.id,
          emoji,
          this.deps.clock.now(),
        ]);
      }
      return (await hydrate(sql, [msg]))[0]!;
    });
  }

  /** An attachment's metadata, when the actor may read its message; its bytes stream from Attachments.chunks. */
  async getAttachment(actor: Actor, { attachmentId }: { attachmentId: string }): Promise<AttachmentMeta> {
    return this.deps.store.tx(async (sql) => {
      const a = await sql.get<{ id: string; message_id: string; name: string; content_type: string; size: number }>(
        'SELECT id, message_id, name, content_type, size FROM attachments WHERE id = ?',
        [attachmentId],
      );
      if (!a) throw new AppError('not_found', 'attachment not found');
      await this.readable(sql, actor, a.message_id, 'attachment not found');
      return { id: a.id, name: a.name, contentType: a.content_type, size: Number(a.size) };
    });
  }

  /** A message whose target the actor may read; not_found otherwise (same answer as a missing message). */
  private async readable(sql: Sql, actor: Actor, messageId: string, what = 'message not found'): Promise<MessageRow> {
    const row = typeof messageId === 'string' ? await sql.get<MessageRow>(`${SELECT_MESSAGE} WHERE m.id = ?`, [messageId]) : undefined;
    if (!row) throw new AppError('not_found', what);
    try {
      await authorizeTarget(sql, actor, parseTarget(row.target));
    } catch {
      throw new AppError('not_found', what);
    }
    return row;
  }
}
