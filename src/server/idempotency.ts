// Owns idempotency receipts for mutations: per (member, key), 24 h, bound to a hash of route + body, sealed, replayed verbatim; stale claims released.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { Sql, Store } from './store/types.js';

export const IDEMPOTENCY_KEY_RE = /^[A-Za-z0-9._:-]{1,128}$/;
export const RECEIPT_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a keyed request may hold its claim; one still running after this loses it (see complete()). */
export const REQUEST_DEADLINE_MS = 30_000;
/** A pending claim older than the request deadline plus a margin is released even if its process is alive. */
export const PENDING_STALE_MS = REQUEST_DEADLINE_MS + 10_000;

export type Begin = { kind: 'new'; claim: string } | { kind: 'replay'; status: number; body: string };

/** Who is running requests: this process's boot id, its live claims, and whether another boot id is still alive. */
export interface ClaimOwners {
  bootId: string;
  alive(sql: Sql, bootId: string): Promise<boolean>;
}

/** The hash a receipt is bound to: method, concrete path and the normalized JSON body. */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n${JSON.stringify(body ?? null)}`).digest('hex');
}

/**
 * The key a receipt is sealed with: HKDF over the requester's own bearer credential (which the server never stores),
 * salted with the server secret and bound to member + idempotency key. Security invariant: a stored receipt (which may
 * carry a credential, e.g. POST /v1/agents) cannot be read from the database, its backups or the server secrets alone.
 */
export function receiptKey(serverSecret: Buffer, bearer: string, memberId: string, key: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(bearer), serverSecret, `agentteam receipt v1\n${memberId}\n${key}`, 32));
}

const SEALED = 'sealed:v1:';

export function sealReceipt(k: Buffer, body: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', k, iv);
  const ct = Buffer.concat([c.update(body, 'utf8'), c.final()]);
  return SEALED + Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64');
}

export function openReceipt(k: Buffer, stored: string): string {
  if (!stored.startsWith(SEALED)) return stored; // receipts written before sealing existed
  const raw = Buffer.from(stored.slice(SEALED.length), 'base64');
  try {
    const d = createDecipheriv('aes-256-gcm', k, raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  } catch {
    // Only the requester's own credential opens it; anything else is a conflict, never the plaintext.
    throw new AppError('idempotency_conflict', 'this idempotency key was already used for a different request');
  }
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

/** The 409 for a key whose first request is genuinely still running. */
export function inFlight(): AppError {
  return new AppError('conflict', 'a request with this idempotency key is still in flight; retry shortly', { hint: 'retry the same request in a second', details: { reason: 'idempotency_in_flight' } });
}

export class IdempotencyReceipts {
  /** Claims this process is running now (claim ids). */
  private readonly running = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly owners?: ClaimOwners,
  ) {}

  /**
   * Whether a pending claim may still be running: its process is this one and the claim is in `running`, or it is
   * another live process; and in any case it is younger than the request deadline plus margin. A claim left by a
   * crashed process (its heartbeat stopped) or by this process's earlier boot is released at once.
   */
  private async mayRun(sql: Sql, claim: string | null, createdAt: number): Promise<boolean> {
    if (this.clock.now() - createdAt >= PENDING_STALE_MS) return false;
    if (!claim || !this.owners) return true;
    const boot = claim.slice(0, claim.indexOf('/'));
    if (boot === this.owners.bootId) return this.running.has(claim);
    return this.owners.alive(sql, boot);
  }

  /**
   * Claims (member, key) for a request, or tells the caller to replay. Same key + different request → 422
   * idempotency_conflict; same key genuinely in flight → 409 conflict (reason idempotency_in_flight). Expired receipts
   * and claims that can no longer be running are replaced. `seal` opens a sealed receipt for replay.
   */
  async begin(memberId: string, key: string, hash: string, seal?: Buffer): Promise<Begin> {
    const now = this.clock.now();
    const claim = `${this.owners?.bootId ?? 'local'}/${randomBytes(6).toString('base64url')}`;
    const out = await this.store.tx(async (sql) => {
      const row = await sql.get<{ request_hash: string; state: string; status: number | null; response: string | null; created_at: number; claim: string | null }>(
        'SELECT request_hash, state, status, response, created_at, claim FROM idempotency_receipts WHERE member_id = ? AND key = ?',
        [memberId, key],
      );
      const live = row && (row.state === 'pending' ? await this.mayRun(sql, row.claim, row.created_at) : now - row.created_at < RECEIPT_TTL_MS);
      if (row && live) {
        if (row.request_hash !== hash) throw new AppError('idempotency_conflict', 'this idempotency key was already used for a different request');
        if (row.state === 'pending') throw inFlight();
        return { kind: 'replay' as const, status: row.status!, body: seal ? openReceipt(seal, row.response!) : row.response! };
      }
      if (row) await sql.run('DELETE FROM idempotency_receipts WHERE member_id = ? AND key = ?', [memberId, key]);
      await sql.run("INSERT INTO idempotency_receipts (member_id, key, request_hash, state, created_at, claim) VALUES (?, ?, ?, 'pending', ?, ?)", [
        memberId,
        key,
        hash,
        now,
        claim,
      ]);
      return { kind: 'new' as const, claim };
    });
    if (out.kind === 'new') this.running.add(claim);
    return out;
  }

  /**
   * Runs the claimed request and stores its exact response in the same transaction as its writes, so a mutation is
   * never committed without its receipt. On failure nothing is stored and the key is released for a retry.
   */
  async runClaimed<R extends { status: number; body: string }>(memberId: string, key: string, claim: string, run: (sql: Sql) => Promise<R>, seal?: Buffer): Promise<R> {
    try {
      return await this.store.tx(async (sql) => {
        // run gets the transaction and must do its writes in it (e.g. through store.within(sql)).
        const reply = await run(sql);
        await this.complete(memberId, key, reply.status, reply.body, sql, claim, seal);
        return reply;
      });
    } catch (e) {
      await this.abandon(memberId, key, claim).catch(() => undefined); // a claim nobody can run is released by begin() anyway
      throw e;
    } finally {
      this.running.delete(claim);
    }
  }

  /**
   * Stores the exact response (status + body, sealed when `seal` is given) for replay, in the transaction `sql`.
   * Security invariant: only the claim that is still current completes; a request whose claim was released (it ran
   * past its deadline and the key was taken over) fails and its transaction rolls back, so a key never applies twice.
   */
  async complete(memberId: string, key: string, status: number, body: string, sql: Sql = this.store, claim?: string, seal?: Buffer): Promise<void> {
    const stored = seal ? sealReceipt(seal, body) : body;
    const n = claim
      ? await sql.run("UPDATE idempotency_receipts SET state = 'complete', status = ?, response = ? WHERE member_id = ? AND key = ? AND claim = ? AND state = 'pending'", [status, stored, memberId, key, claim])
      : await sql.run("UPDATE idempotency_receipts SET state = 'complete', status = ?, response = ? WHERE member_id = ? AND key = ?", [status, stored, memberId, key]);
    if (n === 0 && claim) throw new AppError('conflict', 'this request outlived its idempotency claim; nothing was applied', { hint: 'retry the same request' });
  }

  /** Releases a key whose request failed: nothing was applied (the mutation's transaction rolled back), so a retry may run. */
  async abandon(memberId: string, key: string, claim?: string): Promise<void> {
    if (claim) await this.store.run("DELETE FROM idempotency_receipts WHERE member_id = ? AND key = ? AND state = 'pending' AND claim = ?", [memberId, key, claim]);
    else await this.store.run("DELETE FROM idempotency_receipts WHERE member_id = ? AND key = ? AND state = 'pending'", [memberId, key]);
  }

  /** Deletes receipts older than 24 h; returns how many. */
  async purgeExpired(): Promise<number> {
    return this.store.run('DELETE FROM idempotency_receipts WHERE created_at <= ?', [this.clock.now() - RECEIPT_TTL_MS]);
  }
}
