// Owns bearer credentials: issuing opaque secrets, keeping only keyed hashes, verifying in constant time, bounded tombstones.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../shared/clock.js';
import { constantTimeEqual, keyedHash, newId, newToken } from '../shared/ids.js';
import type { DenyReason, RuntimeAuthorizationInfo, Scope, TokenInfo } from './types.js';

/** The expiry recorded for credentials that live exactly as long as their authorization (MCP): never by time. */
export const NO_EXPIRY = Number.MAX_SAFE_INTEGER;

/** Secrets longer than this are not hashed at all; no issued secret comes close. */
const MAX_SECRET_LENGTH = 512;

/** One issued credential as the registry keeps it: never the secret, only its keyed hash. */
export interface Credential {
  readonly hash: Buffer;
  readonly info: TokenInfo;
  revoked: boolean;
}

export type Verified = { ok: true; credential: Credential } | { ok: false; reason: DenyReason };

/**
 * Keyed-hash credential table. Lookup is O(1) by the HMAC hex, then a constant-time compare of the HMAC bytes.
 * Revoked and expired credentials become tombstones that still answer 'revoked'/'expired'; tombstones are kept
 * first-in-first-out up to `maxTombstones`, after which the oldest answer 'unknown' (bounded memory).
 */
export class TokenRegistry {
  private readonly byHash = new Map<string, Credential>();
  private readonly tombstones = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly hashKey: Buffer = randomBytes(32),
    private readonly maxTombstones = 4096,
    private readonly newSecret: (prefix: 'atm' | 'atx') => string = newToken,
  ) {}

  /** Issues a new credential; the returned secret is handed to the caller once and never stored. */
  issue(scope: Extract<Scope, 'mcp' | 'exec'>, authorization: RuntimeAuthorizationInfo, expiresAt: number, effect?: 'read-only'): { secret: string; credential: Credential } {
    const secret = this.newSecret(scope === 'mcp' ? 'atm' : 'atx');
    const hash = keyedHash(this.hashKey, secret);
    const generationId = newId(scope === 'mcp' ? (effect ? 'mcpk' : 'mcpc') : 'gen');
    const info: TokenInfo = Object.freeze(effect ? { scope, generationId, expiresAt, authorization, effect } : { scope, generationId, expiresAt, authorization });
    const credential: Credential = { hash, info, revoked: false };
    this.byHash.set(hash.toString('hex'), credential);
    return { secret, credential };
  }

  /** Resolves a secret to its credential; reasons are for diagnostics only. */
  verify(secret: string | undefined): Verified {
    if (secret === undefined || secret === '') return { ok: false, reason: 'missing' };
    if (secret.length > MAX_SECRET_LENGTH) return { ok: false, reason: 'unknown' };
    const hash = keyedHash(this.hashKey, secret);
    const c = this.byHash.get(hash.toString('hex'));
    // Security invariant: compare keyed hashes in constant time; the secret itself is never stored or compared.
    if (!c || !constantTimeEqual(c.hash, hash)) return { ok: false, reason: 'unknown' };
    if (c.revoked) return { ok: false, reason: 'revoked' };
    if (this.clock.now() >= c.info.expiresAt) return { ok: false, reason: 'expired' };
    return { ok: true, credential: c };
  }

  /** Revokes a credential: from now on it answers 'revoked' (until its tombstone ages out). Idempotent. */
  revoke(c: Credential): void {
    c.revoked = true;
    this.bury(c);
  }

  /** Forgets an expired credential's live slot but keeps it recognizable as 'expired' while its tombstone lasts. */
  retireExpired(c: Credential): void {
    this.bury(c);
  }

  /** Credentials currently held (live and tombstoned). */
  get size(): number {
    return this.byHash.size;
  }

  private bury(c: Credential): void {
    const key = c.hash.toString('hex');
    if (!this.byHash.has(key) || this.tombstones.has(key)) return;
    this.tombstones.add(key);
    while (this.tombstones.size > this.maxTombstones) {
      const oldest = this.tombstones.values().next().value as string;
      this.tombstones.delete(oldest);
      this.byHash.delete(oldest);
    }
  }
}
