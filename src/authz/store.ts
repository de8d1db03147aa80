// Owns the RuntimeAuthorizationStore: logical runtime authorizations, Exec generations and renewal, revocation, drain, cleanup debt.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Clock, Timer } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { RateLimitedLogger, type Logger } from '../shared/log.js';
import { Admission, LeaseSlot } from './admission.js';
import { createAuthorizationDir, nodeCredentialFs, publishToken, removeAuthorizationDir, TOKEN_FILE_NAME, type CredentialFs } from './credential-file.js';
import { NO_EXPIRY, TokenRegistry, type Credential } from './tokens.js';
import { backoffDelay, BackgroundWork, within, type Backoff } from './timing.js';
import type { AuthGate, AuthResult, RequestLease, RuntimeAuthorizationInfo, TokenInfo } from './types.js';

export type { Backoff };

export type RevokeReason = 'exit' | 'replacement' | 'abort' | 'shutdown';

export interface RuntimeAuthorizationStoreDeps {
  clock: Clock;
  /** Jitter source in [0, 1). */
  random?: () => number;
  /** HMAC key for stored token hashes; random per daemon boot by default. */
  hashKey?: Buffer;
  /** Exec generation TTL; default 12 h. */
  ttlMs?: number;
  /** Fraction of the TTL at which renewal starts; default 0.8 (± `jitter` of the TTL). */
  renewAt?: number;
  /** Renewal jitter as a fraction of the TTL, applied as ±; default 0.05. */
  jitter?: number;
  credentialsDir: string;
  fs?: CredentialFs;
  log: Logger;
  diag?: RateLimitedLogger;
  perAuthorizationLimit?: number;
  globalLimit?: number;
  /** Dispatcher admission: active + activating + still-cleaning-up authorizations; default 512. */
  maxLeases?: number;
  /** How long revocation waits for in-flight requests before removing the file anyway; default 30 s. */
  drainTimeoutMs?: number;
  cleanupBackoff?: Backoff;
  /** Retry backoff after a failed renewal (always capped to land before the current generation expires). */
  renewBackoff?: Backoff;
  /** Longest wait between retries while the runtime holds no valid generation (default 5 s). */
  expiredRetryMaxMs?: number;
  /** Secret generator seam (tests make issuance fail); defaults to ids.newToken. */
  newSecret?: (prefix: 'atm' | 'atx') => string;
}

export interface ActiveAuthorization {
  readonly info: RuntimeAuthorizationInfo;
  /** The MCP bearer (`atm_…`): lives exactly as long as the authorization. Secret. */
  readonly mcpToken: string;
  /** The child-scoped MCP bearer (effect read-only) the runtime may hand to a delegated child process. Secret. */
  readonly mcpChildToken: string;
  /** Path of the private file holding the current Exec generation. Never log it. */
  readonly execTokenFile: string;
}

type State = 'activating' | 'active' | 'revoking' | 'debt';

/** One authorization as the console shows it (no secret, hash or path). */
export interface AuthorizationView {
  id: string;
  agentId: string;
  runId: string;
  runtimeKind: string;
  state: State;
  generations: Array<{ generationId: string; expiresAt: number; current: boolean }>;
  inFlight: number;
  cleanupAttempts?: number;
  nextCleanupAt?: number | null;
}

export interface AuthorizationStoreView {
  authorizations: AuthorizationView[];
  /** Admitted requests in the store (undrained ones of revoked authorizations included). */
  inFlight: number;
  /** Authorizations counted by dispatcher admission (active, activating, revoking, debt). */
  records: number;
  limits: { perAuthorization: number; global: number; dispatcher: number };
}

interface AuthRecord {
  readonly info: RuntimeAuthorizationInfo;
  state: State;
  readonly slot: LeaseSlot;
  mcp?: Credential;
  /** The child-scoped (read-only effect) MCP credential; bound to this record, revoked with it. */
  mcpChild?: Credential;
  /** Every Exec generation not yet retired, oldest first; `current` is the published one. */
  generations: Credential[];
  current?: Credential;
  dir?: string;
  renewTimer?: Timer;
  renewAttempt: number;
  /** In-flight directory creation / publication; removal waits for it so nothing is written after cleanup. */
  publishing?: Promise<void>;
  revocation?: Promise<void>;
  cleanupAttempt: number;
  /** When the next cleanup retry is due (cleanup debt only). */
  nextCleanupAt?: number;
  readonly done: Promise<void>;
  resolveDone: () => void;
}

const HOUR = 3_600_000;

/**
 * The daemon's one RuntimeAuthorizationStore (spec §AgentTeam Exec CLI Transport).
 * activate: dispatcher admission (≤ maxLeases) → MCP credential → private dir → first generation → publish → renewal timer;
 *   any failure rolls back through revoke('abort') and rethrows.
 * renewal: at renewAt·TTL ± jitter issue a new generation and atomically replace the file; the predecessor keeps its own
 *   expiry; on failure the current file and generation stay and renewal retries with backoff before expiry.
 * revoke: stop renewal → revoke every generation + MCP → abort leases → drain (bounded) → remove file and dir;
 *   removal failure is cleanup debt retried with capped exponential backoff, never restoring access.
 */
export class RuntimeAuthorizationStore implements AuthGate {
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly ttlMs: number;
  private readonly renewAt: number;
  private readonly jitter: number;
  private readonly credentialsDir: string;
  private readonly fs: CredentialFs;
  private readonly log: Logger;
  private readonly diag: RateLimitedLogger;
  private readonly maxLeases: number;
  private readonly drainTimeoutMs: number;
  private readonly cleanupBackoff: Backoff;
  private readonly renewBackoff: Backoff;
  private readonly expiredRetryMaxMs: number;
  private readonly tokens: TokenRegistry;
  private readonly admission: Admission;
  private readonly perAuthorizationLimit: number;
  private readonly globalLimit: number;
  private readonly records = new Map<string, AuthRecord>();
  private readonly background = new BackgroundWork();
  private closing = false;

  constructor(deps: RuntimeAuthorizationStoreDeps) {
    this.clock = deps.clock;
    this.random = deps.random ?? Math.random;
    this.ttlMs = deps.ttlMs ?? 12 * HOUR;
    this.renewAt = deps.renewAt ?? 0.8;
    this.jitter = deps.jitter ?? 0.05;
    if (!(this.ttlMs > 0 && this.ttlMs <= 7 * 24 * HOUR)) throw new Error('ttlMs must be in (0, 7 days]');
    if (!(this.renewAt > 0 && this.renewAt < 1) || !(this.jitter >= 0 && this.jitter < Math.min(this.renewAt, 1 - this.renewAt))) {
      throw new Error('renewAt ± jitter must stay inside (0, 1) of the TTL');
    }
    this.credentialsDir = deps.credentialsDir;
    this.fs = deps.fs ?? nodeCredentialFs;
    this.log = deps.log;
    this.diag = deps.diag ?? new RateLimitedLogger(deps.log, deps.clock);
    this.maxLeases = deps.maxLeases ?? 512;
    this.drainTimeoutMs = deps.drainTimeoutMs ?? 30_000;
    this.cleanupBackoff = deps.cleanupBackoff ?? { baseMs: 1_000, maxMs: 60_000 };
    this.renewBackoff = deps.renewBackoff ?? { baseMs: 1_000, maxMs: 5 * 60_000 };
    this.expiredRetryMaxMs = deps.expiredRetryMaxMs ?? 5_000;
    this.tokens = new TokenRegistry(deps.clock, deps.hashKey ?? randomBytes(32), 4096, deps.newSecret);
    this.perAuthorizationLimit = deps.perAuthorizationLimit ?? 32;
    this.globalLimit = deps.globalLimit ?? 1024;
    this.admission = new Admission(this.perAuthorizationLimit, this.globalLimit);
  }

  /** Creates one logical authorization for a runtime process, with its MCP credential and first published Exec generation. */
  async activate(input: Omit<RuntimeAuthorizationInfo, 'id'>): Promise<ActiveAuthorization> {
    if (this.closing) throw new AppError('admission_rejected', 'the daemon is shutting down and admits no new runtime authorizations');
    // Security invariant: active + pre-publication + still-cleaning-up authorizations stay ≤ maxLeases (512).
    if (this.records.size >= this.maxLeases) {
      throw new AppError('admission_rejected', `too many runtime authorizations (${this.records.size} active, activating or still cleaning up; limit ${this.maxLeases})`, {
        hint: 'retry after running runtimes exit or their credential cleanup completes',
      });
    }
    const info: RuntimeAuthorizationInfo = Object.freeze({ ...input, id: newId('rta') });
    let resolveDone!: () => void;
    const done = new Promise<void>((r) => (resolveDone = r));
    const rec: AuthRecord = { info, state: 'activating', slot: new LeaseSlot(), generations: [], renewAttempt: 0, cleanupAttempt: 0, done, resolveDone };
    this.records.set(info.id, rec);
    try {
      const mcp = this.tokens.issue('mcp', info, NO_EXPIRY);
      rec.mcp = mcp.credential;
      // The child credential names the same authorization record: it authenticates only while that record is active.
      const child = this.tokens.issue('mcp', info, NO_EXPIRY, 'read-only');
      rec.mcpChild = child.credential;
      const gen = this.issueGeneration(rec);
      const publication = (async () => {
        rec.dir = await createAuthorizationDir(this.credentialsDir, this.fs);
        if (rec.state !== 'activating') throw new AppError('conflict', 'runtime authorization was revoked during activation');
        await publishToken(rec.dir, gen.secret, this.fs);
      })();
      rec.publishing = publication.catch(() => undefined);
      await publication;
      rec.publishing = undefined;
      if (rec.state !== 'activating') throw new AppError('conflict', 'runtime authorization was revoked during activation');
      rec.state = 'active';
      rec.current = gen.credential;
      this.scheduleRenewal(rec, gen.credential);
      this.log.info({ authorizationId: info.id, generationId: gen.credential.info.generationId, serverId: info.serverId, agentId: info.agentId, runId: info.runId }, 'runtime authorization active');
      return { info, mcpToken: mcp.secret, mcpChildToken: child.secret, execTokenFile: join(rec.dir!, TOKEN_FILE_NAME) };
    } catch (e) {
      // Launch abort: roll back fully (revoke every credential, remove the file) before rethrowing.
      await this.revoke(info.id, 'abort');
      throw e;
    }
  }

  authenticate(secret: string | undefined): AuthResult {
    const v = this.tokens.verify(secret);
    if (!v.ok) return v;
    const rec = this.records.get(v.credential.info.authorization.id);
    // Security invariant: only a credential of an active authorization authenticates; revocation is checked per record too.
    if (!rec || rec.state !== 'active') return { ok: false, reason: 'revoked' };
    return { ok: true, info: v.credential.info };
  }

  acquire(info: TokenInfo): RequestLease | null {
    const rec = this.records.get(info.authorization.id);
    if (!rec || rec.info !== info.authorization) return null;
    return this.admission.acquire(rec.slot, () => rec.state === 'active');
  }

  /** Revokes one logical authorization in the spec's order; resolves after drain and the first removal attempt. */
  revoke(authorizationId: string, why: RevokeReason): Promise<void> {
    const rec = this.records.get(authorizationId);
    if (!rec) return Promise.resolve();
    if (rec.revocation) return rec.revocation;
    rec.state = 'revoking';
    // 1. Stop renewal.
    rec.renewTimer?.cancel();
    rec.renewTimer = undefined;
    // 2. Security invariant: every generation and both MCP credentials (own and child) are revoked before the file is touched.
    for (const g of rec.generations) this.tokens.revoke(g);
    if (rec.mcp) this.tokens.revoke(rec.mcp);
    if (rec.mcpChild) this.tokens.revoke(rec.mcpChild);
    // 3. In-flight requests see the abort; their live() turns false.
    rec.slot.abort(why);
    this.log.info({ authorizationId, why, inFlight: rec.slot.inFlight }, 'runtime authorization revoked');
    rec.revocation = this.background.track(this.finishRevocation(rec));
    return rec.revocation;
  }

  /** Revokes everything, then waits up to timeoutMs for drain and file removal. True when all cleanup completed. */
  async shutdown(timeoutMs: number): Promise<boolean> {
    this.closing = true;
    const all = [...this.records.values()];
    for (const rec of all) void this.revoke(rec.info.id, 'shutdown');
    return within(this.clock, Promise.all(all.map((r) => r.done)), timeoutMs);
  }

  stats(): { authorizations: number; cleanupDebt: number; inFlight: number } {
    let authorizations = 0;
    let cleanupDebt = 0;
    for (const r of this.records.values()) {
      if (r.state === 'active') authorizations++;
      else if (r.state === 'debt') cleanupDebt++;
    }
    return { authorizations, cleanupDebt, inFlight: this.admission.inFlight };
  }

  /**
   * A read-only view for the owner's console: ids, states, generation ids and expiries, in-flight counts, cleanup debt.
   * Security invariant: no secret, hash or credential path is in it.
   */
  view(): AuthorizationStoreView {
    const authorizations: AuthorizationView[] = [];
    for (const r of this.records.values()) {
      authorizations.push({
        id: r.info.id,
        agentId: r.info.agentId,
        runId: r.info.runId,
        runtimeKind: r.info.runtimeKind,
        state: r.state,
        generations: r.generations.map((g) => ({ generationId: g.info.generationId, expiresAt: g.info.expiresAt, current: g === r.current })),
        inFlight: r.slot.inFlight,
        ...(r.state === 'debt' ? { cleanupAttempts: r.cleanupAttempt, nextCleanupAt: r.nextCleanupAt ?? null } : {}),
      });
    }
    return { authorizations, inFlight: this.admission.inFlight, records: this.records.size, limits: { perAuthorization: this.perAuthorizationLimit, global: this.globalLimit, dispatcher: this.maxLeases } };
  }

  /** Resolves when no background renewal, drain or cleanup work is running (timers may still be pending). */
  whenIdle(): Promise<void> {
    return this.background.idle();
  }

  private issueGeneration(rec: AuthRecord): { secret: string; credential: Credential } {
    const g = this.tokens.issue('exec', rec.info, this.clock.now() + this.ttlMs);
    rec.generations.push(g.credential);
    return g;
  }

  private scheduleRenewal(rec: AuthRecord, current: Credential): void {
    const issuedAt = current.info.expiresAt - this.ttlMs;
    const offset = (this.renewAt + (this.random() * 2 - 1) * this.jitter) * this.ttlMs;
    rec.renewAttempt = 0;
    rec.renewTimer = this.clock.setTimer(Math.max(0, issuedAt + offset - this.clock.now()), () => this.renew(rec));
  }

  private renew(rec: AuthRecord): void {
    rec.renewTimer = undefined;
    if (rec.state === 'active') this.background.track(this.renewOnce(rec));
  }

  private async renewOnce(rec: AuthRecord): Promise<void> {
    let next: { secret: string; credential: Credential } | undefined;
    try {
      next = this.issueGeneration(rec);
      const p = publishToken(rec.dir!, next.secret, this.fs);
      rec.publishing = p.catch(() => undefined);
      await p;
    } catch (e) {
      // A failed replacement never touches the generation the runtime is using; the unpublished one is discarded.
      if (next) this.discard(rec, next.credential);
      if (rec.state !== 'active') return;
      rec.renewAttempt++;
      // Retry before the current generation expires: never later than half the time it has left. Once it expired the
      // runtime holds no valid generation: retry within seconds, so access returns soon after the fault clears.
      const untilExpiry = (rec.current?.info.expiresAt ?? 0) - this.clock.now();
      const pullIn = untilExpiry > 0 ? Math.max(this.renewBackoff.baseMs, untilExpiry / 2) : this.expiredRetryMaxMs;
      const delay = Math.min(backoffDelay(this.renewBackoff, rec.renewAttempt), pullIn);
      this.diag.warn('authz:renewal', { authorizationId: rec.info.id, attempt: rec.renewAttempt, retryInMs: delay, error: safeMessage(e) }, 'credential renewal failed; keeping the current generation');
      rec.renewTimer = this.clock.setTimer(delay, () => this.renew(rec));
      return;
    } finally {
      rec.publishing = undefined;
    }
    if (rec.state !== 'active') return; // revoked meanwhile: revoke() already revoked `next` with the rest
    rec.current = next.credential;
    // Retire generations past their own expiry; the predecessor keeps its original expiresAt (never extended).
    const now = this.clock.now();
    rec.generations = rec.generations.filter((g) => {
      if (g === rec.current || now < g.info.expiresAt) return true;
      this.tokens.retireExpired(g);
      return false;
    });
    this.log.info({ authorizationId: rec.info.id, generationId: next.credential.info.generationId }, 'credential generation renewed');
    this.scheduleRenewal(rec, next.credential);
  }

  private discard(rec: AuthRecord, c: Credential): void {
    this.tokens.revoke(c);
    rec.generations = rec.generations.filter((g) => g !== c);
  }

  private async finishRevocation(rec: AuthRecord): Promise<void> {
    // 4. Drain in-flight requests (bounded), and let any in-flight publication settle so nothing is written after removal.
    const drained = await within(this.clock, rec.slot.drained(), this.drainTimeoutMs);
    if (!drained) this.log.warn({ authorizationId: rec.info.id, inFlight: rec.slot.inFlight }, 'drain timed out; removing the credential anyway');
    if (rec.publishing) await rec.publishing;
    // 5. Remove the token file and its directory.
    await this.cleanup(rec);
  }

  private async cleanup(rec: AuthRecord): Promise<void> {
    try {
      if (rec.dir) await removeAuthorizationDir(rec.dir, this.fs);
    } catch (e) {
      // Cleanup debt: still counted toward admission, retried with capped exponential backoff; access stays revoked.
      rec.state = 'debt';
      rec.cleanupAttempt++;
      const delay = backoffDelay(this.cleanupBackoff, rec.cleanupAttempt);
      rec.nextCleanupAt = this.clock.now() + delay;
      this.diag.warn(`authz:cleanup:${rec.info.id}`, { authorizationId: rec.info.id, attempt: rec.cleanupAttempt, retryInMs: delay, error: safeMessage(e) }, 'credential cleanup failed; retrying');
      this.clock.setTimer(delay, () => void this.background.track(this.cleanup(rec)));
      return;
    }
    this.records.delete(rec.info.id);
    rec.resolveDone();
    this.log.info({ authorizationId: rec.info.id, attempts: rec.cleanupAttempt + 1 }, 'runtime authorization cleaned up');
  }
}

/** Our own fs errors carry only an errno; anything else is reduced to a fixed word so no path or secret is logged. */
function safeMessage(e: unknown): string {
  return e instanceof AppError ? e.message : 'error';
}
