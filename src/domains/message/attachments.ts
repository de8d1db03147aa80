// Owns attachment bytes on the server: streamed uploads into chunk rows, claiming uploads for a message, chunked reads, orphan expiry.
//
// Why chunk rows in the database (not files in the data dir): the standalone server scales out as several processes on
// one PostgreSQL database, so an upload taken by one process must be claimable and readable by any other; rows are the
// one storage both engines share. Each chunk is at most UPLOAD_CHUNK_BYTES, so a request never holds more than about
// one chunk plus one socket read in memory, and a download reads one chunk row at a time. SQLite copies a bound blob
// once per INSERT; nothing else holds the whole attachment.
import { AppError } from '../../shared/errors.js';
import { checkName } from '../../shared/bounds.js';
import { newCompactId } from '../../shared/ids.js';
import type { Sql } from '../../server/store/types.js';
import { type Actor, type DomainDeps } from '../../server/context.js';
import { ATTACHMENT_NAME_MAX, MAX_ATTACHMENTS, MAX_ATTACHMENT_BYTES, type AttachmentMeta } from './contract.js';

export const UPLOAD_CHUNK_BYTES = 256 * 1024;
/** An upload not attached to a message within this time is discarded. */
export const UPLOAD_TTL_MS = 15 * 60_000;
/** Unclaimed uploads one member may hold at once (eight full messages). */
export const MAX_PENDING_UPLOADS = 32;
/** An upload body must arrive within this time. */
export const UPLOAD_DEADLINE_MS = 60_000;

const MIME_RE = /^[A-Za-z0-9!#$&^_.+-]{1,127}\/[A-Za-z0-9!#$&^_.+-]{1,127}$/;
export const ATTACHMENT_ID_RE = /^att_[A-Za-z0-9_-]{1,96}$/;

export interface UploadMeta {
  name: string;
  contentType: string;
  size: number;
}

/** Validates what an upload declares before a body byte is read. */
export function checkUploadMeta(m: { name?: unknown; contentType?: unknown; size?: unknown }): UploadMeta {
  const name = checkName(m.name, { field: 'attachment name', min: 1, chars: ATTACHMENT_NAME_MAX, bytes: ATTACHMENT_NAME_MAX }); // a file name on disk: one visible line, no NUL
  if (typeof m.contentType !== 'string' || !MIME_RE.test(m.contentType)) throw new AppError('validation_failed', 'attachment contentType must be a MIME type like text/plain');
  if (typeof m.size !== 'number' || !Number.isSafeInteger(m.size) || m.size < 0) throw new AppError('invalid_input', 'an upload needs a Content-Length');
  if (m.size > MAX_ATTACHMENT_BYTES) throw new AppError('payload_too_large', `an attachment exceeds ${MAX_ATTACHMENT_BYTES} bytes (10 MiB)`);
  return { name, contentType: m.contentType, size: m.size };
}

/** The attachmentIds of a new message: at most four distinct ids. */
export function checkAttachmentIds(ids: unknown): string[] {
  if (ids === undefined) return [];
  if (!Array.isArray(ids) || ids.length > MAX_ATTACHMENTS) throw new AppError('validation_failed', `at most ${MAX_ATTACHMENTS} attachments per message`);
  if (new Set(ids).size !== ids.length) throw new AppError('validation_failed', 'attachmentIds must be distinct');
  for (const id of ids) if (typeof id !== 'string' || !ATTACHMENT_ID_RE.test(id)) throw new AppError('validation_failed', 'attachmentIds must be upload ids');
  return ids as string[];
}

export class Attachments {
  constructor(private readonly deps: DomainDeps) {}

  /**
   * Stores one upload from `body`, chunk by chunk, and returns its id (the future attachment id). The body must be
   * exactly `meta.size` bytes. A failed or aborted upload is discarded. Expired uploads are swept first.
   */
  async upload(actor: Actor, meta: UploadMeta, body: AsyncIterable<Buffer>, abortBody: (e: AppError) => void): Promise<AttachmentMeta> {
    await this.sweep();
    const id = newCompactId('att');
    await this.deps.store.tx(async (sql) => {
      const n = await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM attachment_uploads WHERE member_id = ?', [actor.id]);
      // Security invariant: unclaimed uploads per member are bounded (and expire), so orphans cannot fill the store.
      if (Number(n?.n ?? 0) >= MAX_PENDING_UPLOADS) {
        throw new AppError('admission_rejected', `at most ${MAX_PENDING_UPLOADS} uploads may wait to be sent`, { hint: 'send the message that uses them, or retry after they expire' });
      }
      await sql.run('INSERT INTO attachment_uploads (id, member_id, name, content_type, size, complete, created_at) VALUES (?, ?, ?, ?, ?, 0, ?)', [
        id,
        actor.id,
        meta.name,
        meta.contentType,
        meta.size,
        this.deps.clock.now(),
      ]);
    });
    const deadline = this.deps.clock.setTimer(UPLOAD_DEADLINE_MS, () => abortBody(new AppError('request_timeout', `the upload did not arrive within ${UPLOAD_DEADLINE_MS} ms`)));
    try {
      let seq = 0;
      let received = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async (all: boolean) => {
        while (pendingBytes >= UPLOAD_CHUNK_BYTES || (all && pendingBytes > 0)) {
          const joined = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
          const take = Math.min(UPLOAD_CHUNK_BYTES, joined.length);
          await this.deps.store.run('INSERT INTO attachment_chunks (attachment_id, seq, data) VALUES (?, ?, ?)', [id, seq++, joined.subarray(0, take)]);
          const rest = joined.subarray(take);
          pending = rest.length > 0 ? [rest] : [];
          pendingBytes = rest.length;
        }
      };
      for await (const c of body) {
        received += c.length;
        if (received > meta.size) throw new AppError('invalid_input', 'the upload body is longer than its Content-Length');
        pending.push(c);
        pendingBytes += c.length;
        await flush(false);
      }
      await flush(true);
      if (received !== meta.size) throw new AppError('invalid_input', 'the upload body is shorter than its Content-Length');
      const done = await this.deps.store.run('UPDATE attachment_uploads SET complete = 1 WHERE id = ? AND complete = 0', [id]);
      if (done !== 1) throw new AppError('request_timeout', 'the upload expired before it completed');
    } catch (e) {
      await this.discard(id).catch(() => undefined);
      throw e instanceof AppError ? e : new AppError('invalid_input', 'the upload body was cut off');
    } finally {
      deadline.cancel();
    }
    return { id, name: meta.name, contentType: meta.contentType, size: meta.size };
  }

  /**
   * Inside a message's transaction: turns the actor's own completed, unexpired uploads into the message's attachments
   * (in order) and removes them from the pending uploads. Security invariant: an upload is claimable only by the
   * member who uploaded it, once.
   */
  async claim(sql: Sql, actor: Actor, ids: readonly string[], messageId: string): Promise<void> {
    const fresh = this.deps.clock.now() - UPLOAD_TTL_MS;
    for (let pos = 0; pos < ids.length; pos++) {
      const u = await sql.get<{ member_id: string; name: string; content_type: string; size: number; complete: number; created_at: number }>(
        'SELECT member_id, name, content_type, size, complete, created_at FROM attachment_uploads WHERE id = ?',
        [ids[pos]!],
      );
      if (!u || u.member_id !== actor.id || Number(u.complete) !== 1 || Number(u.created_at) < fresh) {
        throw new AppError('validation_failed', `attachmentIds[${pos}] is not a completed upload of yours (uploads expire after 15 minutes)`);
      }
      await sql.run('INSERT INTO attachments (id, message_id, position, name, content_type, size, data) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        ids[pos]!,
        messageId,
        pos,
        u.name,
        u.content_type,
        Number(u.size),
        Buffer.alloc(0),
      ]);
      await sql.run('DELETE FROM attachment_uploads WHERE id = ?', [ids[pos]!]);
    }
  }

  /** The attachment's bytes, one chunk row at a time (the caller has authorized the read). */
  async *chunks(attachmentId: string): AsyncGenerator<Buffer> {
    for (let seq = 0; ; seq++) {
      const row = await this.deps.store.get<{ data: Buffer }>('SELECT data FROM attachment_chunks WHERE attachment_id = ? AND seq = ?', [attachmentId, seq]);
      if (!row) return;
      yield Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data);
    }
  }

  /** Removes expired uploads (a bounded batch per call). */
  async sweep(): Promise<number> {
    const rows = await this.deps.store.all<{ id: string }>('SELECT id FROM attachment_uploads WHERE created_at < ? ORDER BY created_at ASC LIMIT 64', [
      this.deps.clock.now() - UPLOAD_TTL_MS,
    ]);
    for (const r of rows) await this.discard(r.id);
    return rows.length;
  }

  /** Drops an upload and its chunks; chunks already claimed by a message (an attachments row) are never touched. */
  private discard(id: string): Promise<void> {
    return this.deps.store.tx(async (sql) => {
      await sql.run('DELETE FROM attachment_uploads WHERE id = ?', [id]);
      await sql.run('DELETE FROM attachment_chunks WHERE attachment_id = ? AND NOT EXISTS (SELECT 1 FROM attachments WHERE id = ?)', [id, id]);
    });
  }
}
