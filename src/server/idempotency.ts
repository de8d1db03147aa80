// Owns idempotency receipts for mutations: per (member, key), 24 h, bound to a hash of route + body, replayed verbatim.
import { createHash } from 'node:crypto';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { Sql, Store } from './store/types.js';

export const IDEMPOTENCY_KEY_RE = /^[A-Za-z0-9._:-]{1,128}$/;
export const RECEIPT_TTL_MS = 24 * 60 * 60 * 1000;
/** A pending receipt older than this is treated as abandoned (its request died mid-flight) and may be taken over. */
export const PENDING_STALE_MS = 2 * 60 * 1000;

export type Begin = { kind: 'new' } | { kind: 'replay'; status: number; body: string };

/** The hash a receipt is bound to: method, concrete path and the normalized JSON body. */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n${JSON.stringify(body ?? null)}`).digest('hex');
}

/**
 * Picks the key from the headers. Security invariant: Idempotency-Key and X-Request-ID must agree when both are given,
 * and must match the bounded format, else the request is refused before anything runs.
 */
export function idempotencyKeyFrom(headers: Record<string, string | string[] | undefined>): string | undefined {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? (v.length === 1 ? v[0] : '\u0000') : v);
  const a = one(headers['idempotency-key']);
  const b = one(headers['x-request-id']);
  if (a !== undefined && b !== undefined && a !== b) throw new AppError('invalid_input', 'Idempotency-Key and X-Request-ID differ; send the same value or only one');
  const key = a ?? b;
  if (key !== undefined && !IDEMPOTENCY_KEY_RE.test(key)) throw new AppError('invalid_input', 'idempotency key must match ^[A-Za-z0-9._:-]{1,128}$');
  return key;
}

export class IdempotencyReceipts {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /**
   * Claims (member, key) for a request, or tells the caller to replay. Same key + different request → 422
   * idempotency_conflict; same key still in flight → 409 conflict. Expired receipts are ignored and replaced.
   */
  async begin(memberId: string, key: string, hash: string): Promise<Begin> {
    const now = this.clock.now();
    return this.store.tx(async (sql) => {
      const row = await sql.get<{ request_hash: string; state: string; status: number | null; response: string | null; created_at: number }>(
        'SELECT request_hash, state, status, response, created_at FROM idempotency_receipts WHERE member_id = ? AND key = ?',
        [memberId, key],
      );
      const live = row && now - row.created_at < (row.state === 'pending' ? PENDING_STALE_MS : RECEIPT_TTL_MS);
      if (row && live) {
        if (row.request_hash !== hash) throw new AppError('idempotency_conflict', 'this idempotency key was already used for a different request');
        if (row.state === 'pending') throw new AppError('conflict', 'a request with this idempotency key is still in flight; retry shortly');
        return { kind: 'replay', status: row.status!, body: row.response! };
      }
      if (row) await sql.run('DELETE FROM idempotency_receipts WHERE member_id = ? AND key = ?', [memberId, key]);
      await sql.run("INSERT INTO idempotency_receipts (member_id, key, request_hash, state, created_at) VALUES (?, ?, ?, 'pending', ?)", [
        memberId,
        key,
        hash,
        now,
      ]);
      return { kind: 'new' };
    });
  }

  /**
   * Runs the claimed request and stores its exact response in the same transaction as its writes, so a mutation is
   * never committed without its receipt. On failure nothing is stored and the key is released for a retry.
   */
  async runClaimed<R extends { status: number; body: string }>(memberId: string, key: string, run: (sql: Sql) => Promise<R>): Promise<R> {
    try {
      return await this.store.tx(async (sql) => {
        // run gets the transaction and must do its writes in it (e.g. through store.within(sql)).
        const reply = await run(sql);
        await this.complete(memberId, key, reply.status, reply.body, sql);
        return reply;
      });
    } catch (e) {
      await this.abandon(memberId, key);
      throw e;
    }
  }

  /** Stores the exact response (status + body) for replay, in the transaction `sql` when given. */
  async complete(memberId: string, key: string, status: number, body: string, sql: Sql = this.store): Promise<void> {
    await sql.run("UPDATE idempotency_receipts SET state = 'complete', status = ?, response = ? WHERE member_id = ? AND key = ?", [status, body, memberId, key]);
  }

  /** Releases a key whose request failed: nothing was applied (the mutation's transaction rolled back), so a retry may run. */
  async abandon(memberId: string, key: string): Promise<void> {
    await this.store.run("DELETE FROM idempotency_receipts WHERE member_id = ? AND key = ? AND state = 'pending'", [memberId, key]);
  }

  /** Deletes receipts older than 24 h; returns how many. */
  async purgeExpired(): Promise<number> {
    return this.store.run('DELETE FROM idempotency_receipts WHERE created_at <= ?', [this.clock.now() - RECEIPT_TTL_MS]);
  }
}
