// Owns this server process's liveness record (server_processes: boot id + heartbeat) so peers can tell a crashed process's pending work from live work.
import { randomBytes } from 'node:crypto';
import type { Clock, Timer } from '../shared/clock.js';
import type { Logger } from '../shared/log.js';
import type { Sql, Store } from './store/types.js';

/** Heartbeat period; a process whose heartbeat is older than HEARTBEAT_MS × 3 is gone. */
export const HEARTBEAT_MS = 5000;
export const PROCESS_GONE_MS = HEARTBEAT_MS * 3;

/**
 * One row per running server process. A process writes its row at start, refreshes it every 5 s through the Clock and
 * deletes it on a clean close; a crashed process's row simply stops moving. Rows older than a day are swept.
 */
export class ServerProcess {
  readonly bootId = `bt_${randomBytes(9).toString('base64url')}`;
  private timer: Timer | undefined;
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly log?: Logger,
  ) {}

  async register(): Promise<void> {
    const now = this.clock.now();
    await this.store.run('DELETE FROM server_processes WHERE heartbeat_at < ?', [now - 24 * 60 * 60 * 1000]);
    await this.store.run('INSERT INTO server_processes (boot_id, started_at, heartbeat_at) VALUES (?, ?, ?)', [this.bootId, now, now]);
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

  /** Writes the heartbeat. */
  private async beat(): Promise<void> {
    const now = this.clock.now();
    // Upsert: a heartbeat after a database restart (or a sweep) recreates the row.
    await this.store.run('INSERT INTO server_processes (boot_id, started_at, heartbeat_at) VALUES (?, ?, ?) ON CONFLICT (boot_id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at', [this.bootId, now, now]);
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
    await this.store.run('DELETE FROM server_processes WHERE boot_id = ?', [this.bootId]).catch(() => undefined);
  }
}
