// Owns console authentication state: one-time login links, owner sessions (cookie) and their per-session CSRF tokens.
import { createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../shared/clock.js';
import { constantTimeEqual } from '../shared/ids.js';

/** A login link is spent on first use and dies after this long unused. */
export const LINK_TTL_MS = 120_000;
/** A console session lasts this long from login (the cookie's Max-Age too). */
export const SESSION_TTL_MS = 12 * 3_600_000;
/** Unspent links and live sessions held at once; the oldest goes first beyond it. */
const MAX_LINKS = 16;
const MAX_SESSIONS = 32;
/** A secret is 32 random bytes, base64url: exactly this many characters. */
const SECRET = /^[A-Za-z0-9_-]{43}$/;

export interface ConsoleSession {
  /** Sent by the page in X-CSRF-Token on every mutation. Not secret from the page, secret from other origins. */
  readonly csrf: string;
  readonly expiresAt: number;
}

interface Entry<T> {
  hash: Buffer;
  expiresAt: number;
  value: T;
}

/**
 * Links and sessions are stored by keyed hash only (a per-boot HMAC key), so neither a heap dump nor a timing probe of
 * the map reveals a usable secret; the final comparison is constant-time.
 */
export class ConsoleAuth {
  private readonly key = randomBytes(32);
  private readonly links = new Map<string, Entry<true>>();
  private readonly sessions = new Map<string, Entry<ConsoleSession>>();

  constructor(private readonly clock: Clock) {}

  /** A new one-time login secret (for the link `agentteam console` prints). */
  issueLink(): string {
    const secret = randomBytes(32).toString('base64url');
    this.put(this.links, secret, true, LINK_TTL_MS, MAX_LINKS);
    return secret;
  }

  /** Spends a login secret: a new session, or undefined when the secret is unknown, spent or expired. */
  redeem(secret: string | undefined): { sessionId: string; session: ConsoleSession } | undefined {
    if (!this.take(this.links, secret, true)) return undefined;
    const sessionId = randomBytes(32).toString('base64url');
    const session: ConsoleSession = { csrf: randomBytes(32).toString('base64url'), expiresAt: this.clock.now() + SESSION_TTL_MS };
    this.put(this.sessions, sessionId, session, SESSION_TTL_MS, MAX_SESSIONS);
    return { sessionId, session };
  }

  session(sessionId: string | undefined): ConsoleSession | undefined {
    return this.take(this.sessions, sessionId, false);
  }

  end(sessionId: string | undefined): void {
    if (sessionId && SECRET.test(sessionId)) this.sessions.delete(this.hash(sessionId).toString('hex'));
  }

  /** Constant-time check of the page's CSRF header against its session's token. */
  static csrfMatches(session: ConsoleSession, header: string | string[] | undefined): boolean {
    return typeof header === 'string' && constantTimeEqual(Buffer.from(header), Buffer.from(session.csrf));
  }

  private hash(secret: string): Buffer {
    return createHmac('sha256', this.key).update(secret).digest();
  }

  private put<T>(map: Map<string, Entry<T>>, secret: string, value: T, ttlMs: number, max: number): void {
    this.sweep(map);
    while (map.size >= max) map.delete(map.keys().next().value!);
    const hash = this.hash(secret);
    map.set(hash.toString('hex'), { hash, expiresAt: this.clock.now() + ttlMs, value });
  }

  private take<T>(map: Map<string, Entry<T>>, secret: string | undefined, spend: boolean): T | undefined {
    if (!secret || !SECRET.test(secret)) return undefined;
    const hash = this.hash(secret);
    const k = hash.toString('hex');
    const e = map.get(k);
    if (!e || !constantTimeEqual(e.hash, hash)) return undefined;
    if (spend) map.delete(k);
    if (this.clock.now() >= e.expiresAt) {
      map.delete(k);
      return undefined;
    }
    return e.value;
  }

  private sweep<T>(map: Map<string, Entry<T>>): void {
    const now = this.clock.now();
    for (const [k, e] of map) if (now >= e.expiresAt) map.delete(k);
  }
}
