// Owns request admission: per-authorization and global in-flight lease bounds, revocation signals and drain.
import { setMaxListeners } from 'node:events';
import type { RequestLease } from './types.js';

/** One authorization's in-flight requests and the signal that revocation aborts. */
export class LeaseSlot {
  private readonly controller = LeaseSlot.newController();

  /** One signal per authorization is shared by up to 32 in-flight requests (each body read listens on it). */
  private static newController(): AbortController {
    const c = new AbortController();
    setMaxListeners(64, c.signal);
    return c;
  }
  private readonly leases = new Set<object>();
  private waiters: Array<() => void> = [];

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get inFlight(): number {
    return this.leases.size;
  }

  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  /** Aborts every in-flight lease's signal; their live() turns false. Idempotent. */
  abort(reason: string): void {
    if (!this.controller.signal.aborted) this.controller.abort(new Error(`runtime authorization revoked (${reason})`));
  }

  /** Resolves once no lease is in flight. */
  drained(): Promise<void> {
    if (this.leases.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** @internal used by Admission */
  add(token: object): void {
    this.leases.add(token);
  }

  /** @internal used by Admission */
  remove(token: object): void {
    this.leases.delete(token);
    if (this.leases.size === 0 && this.waiters.length > 0) {
      const w = this.waiters;
      this.waiters = [];
      for (const f of w) f();
    }
  }
}

/**
 * Counts acquired requests: at most `perAuthorization` per slot and `global` in the store. Leases of revoked but
 * undrained authorizations stay counted until released, so revocation never frees capacity early.
 */
export class Admission {
  private total = 0;

  constructor(
    private readonly perAuthorization = 32,
    private readonly global = 1024,
  ) {}

  get inFlight(): number {
    return this.total;
  }

  /** Called once per lease by Lease.release. */
  released(): void {
    this.total--;
  }

  /** Admits one request on `slot` when `live()` holds and both bounds allow; otherwise null. */
  acquire(slot: LeaseSlot, live: () => boolean): RequestLease | null {
    // Security invariant: a revoked authorization admits nothing.
    if (slot.aborted || !live()) return null;
    // Security invariant: ≤ 32 acquired requests per authorization and ≤ 1024 in the store (undrained ones included).
    if (slot.inFlight >= this.perAuthorization || this.total >= this.global) return null;
    this.total++;
    return new Lease(slot, live, this);
  }
}

/** One admitted request: a single object per request (it is its own token in the slot). */
class Lease implements RequestLease {
  private done = false;

  constructor(
    private readonly slot: LeaseSlot,
    private readonly isLive: () => boolean,
    private readonly admission: Admission,
  ) {
    slot.add(this);
  }

  get signal(): AbortSignal {
    return this.slot.signal;
  }

  live(): boolean {
    return !this.slot.aborted && this.isLive();
  }

  release(): void {
    if (this.done) return;
    this.done = true;
    this.admission.released();
    this.slot.remove(this);
  }
}
