// Owns this server process's liveness record (server_processes: boot id + heartbeat) so peers can tell a crashed process's pending work from live work, and its id-node lease.
import { randomBytes } from 'node:crypto';
import { AppError } from '../shared/errors.js';
import type { Clock, Timer } from '../shared/clock.js';
import type { Logger } from '../shared/log.js';
import type { Sql, Store } from './store/types.js';
import { IdNodeLease } from './id-nodes.js';
import type { SortableIds } from '../shared/ids.js';

/** Heartbeat period; a process whose heartbeat is older than HEARTBEAT_MS × 3 is gone. */
export const HEARTBEAT_MS = 5000;
export const PROCESS_GONE_MS = HEARTBEAT_MS * 3;
/** A request or background pass waits for a heartbeat first when the id-node hold has less than this left (normally minutes). */
const READY_MARGIN_MS = HEARTBEAT_MS * 2;

/**
 * One row per running server process. A process writes its row at start, refreshes it every 5 s through the Clock and
 * deletes it on a clean close; a crashed process's row simply stops moving. Rows older than a day are swept.
 */
export class ServerProcess {
  readonly bootId = `bt_${randomBytes(9).toString('base64url')}`;
  private timer: Timer | undefined;
  private closed = false;
  private readonly lease: IdNodeLease;
  private readonly now = () => this.clock.now();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly log?: Logger,
  ) {
    this.lease = new IdNodeLease(store, clock, this.bootId);
    this.lease.ids.renewWith(() =>
      this.beat().catch((e: unknown) => {
        throw e instanceof AppError ? e : new AppError('upstream_unavailable', 'the database is unavailable', { hint: 'retry shortly' });
      }),
      READY_MARGIN_MS,
    );
  }

  /** This process's id generator: its node is claimed in register(); the heartbeat of this row keeps it held. */
  get ids(): SortableIds {
    return this.lease.ids;
  }

  async register(): Promise<void> {
    const now = this.clock.now();
    await this.store.run('DELETE FROM server_processes WHERE heartbeat_at < ?', [now - 24 * 60 * 60 * 1000]);
    await this.store.run('INSERT INTO server_processes (boot_id, started_at, heartbeat_at) VALUES (?, ?, ?)', [this.bootId, now, now]);
    await this.lease.claim(now);
    this.schedule();
  }

  private schedule(): void {
    this.timer = this.clock.setTimer(HEARTBEAT_MS, () => {
      if (this.closed) return;
      this.beat()
        .catch((e) => this.log?.warn({ code: (e as { code?: string }).code }, 'server heartbeat failed'))
        .finally(() => this.closed || this.schedule());
    });
  }

  /** Writes the heartbeat, then confirms (or replaces) the id node it keeps held. */
  private async beat(): Promise<void> {
    const now = this.clock.now();
    // Upsert: a heartbeat after a database restart (or a sweep) recreates the row.
    await this.store.run('INSERT INTO server_processes (boot_id, started_at, heartbeat_at) VALUES (?, ?, ?) ON CONFLICT (boot_id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at', [this.bootId, now, now]);
    await this.lease.confirm(now);
  }

  /** Undefined while this process may issue ids for a while yet; otherwise a heartbeat now (see SortableIds.ready). */
  ready(): Promise<void> | undefined {
    return this.closed ? undefined : this.lease.ids.ready(this.now);
  }

  /** Whether the process with this boot id is still running (its heartbeat is fresh). */
  async alive(sql: Sql, bootId: string): Promise<boolean> {
    if (bootId === this.bootId) return true;
    const row = await sql.get<{ heartbeat_at: number }>('SELECT heartbeat_at FROM server_processes WHERE boot_id = ?', [bootId]);
    return !!row && this.clock.now() - row.heartbeat_at < PROCESS_GONE_MS;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.timer?.cancel();
    await this.lease.release().catch(() => undefined);
    await this.store.run('DELETE FROM server_processes WHERE boot_id = ?', [this.bootId]).catch(() => undefined);
  }
}
