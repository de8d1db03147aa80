// Owns id-node leases (id_nodes): each server process on a database claims its own node number for SortableIds, held while its process heartbeat is fresh, released with its high-water mark.
import { NODE_MAX, SortableIds } from '../shared/ids.js';
import type { Clock } from '../shared/clock.js';
import type { Store } from './store/types.js';

/**
 * A node whose holder's process heartbeat (server_processes) is this old, or missing, may be claimed again. Far
 * longer than the 15 s after which a process counts as gone, so a process paused (not crashed) keeps its node; one
 * paused for longer stops issuing ids (HOLD_MS) until its heartbeat shows it still holds the node, or claims another.
 */
export const NODE_REUSE_MS = 10 * 60 * 1000;
/** How long after its last confirmed heartbeat a process may issue ids: half of NODE_REUSE_MS, a margin for clock skew. */
export const HOLD_MS = NODE_REUSE_MS / 2;

interface NodeRow {
  node: number;
  boot_id: string;
  heartbeat_at: number;
  high_ms: number;
  /** The holder's process heartbeat; null when its server_processes row is gone. */
  alive_at: number | null;
}

/**
 * The lease on one node. Security-free but correctness-critical invariant: at most one live process holds a node, so
 * ids never collide across processes: a claim is an INSERT of a free number or a compare-and-set on a released or
 * long-stale row, both refused when another process got there first (then the next number is tried).
 */
export class IdNodeLease {
  readonly ids = new SortableIds();
  private node = -1;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly bootId: string,
  ) {}

  /** The node held now (-1 before claim). */
  get held(): number {
    return this.node;
  }

  /**
   * Claims the smallest free, released or long-stale node; the generator resumes above its previous high-water mark.
   * `aliveAt` is the heartbeat this process last wrote (server_processes), before the claim.
   */
  async claim(aliveAt = this.clock.now()): Promise<number> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const now = this.clock.now();
      const rows = await this.store.all<NodeRow>('SELECT n.node, n.boot_id, n.heartbeat_at, n.high_ms, p.heartbeat_at AS alive_at FROM id_nodes n LEFT JOIN server_processes p ON p.boot_id = n.boot_id ORDER BY n.node');
      const byNode = new Map(rows.map((r) => [Number(r.node), r]));
      let n = 0;
      while (n <= NODE_MAX && byNode.has(n) && !reusable(byNode.get(n)!, now)) n++;
      if (n > NODE_MAX) throw new Error(`every id node (0..${NODE_MAX}) is held by a live server process`);
      const old = byNode.get(n);
      const won = old
        ? await this.store.run('UPDATE id_nodes SET boot_id = ?, heartbeat_at = ? WHERE node = ? AND boot_id = ? AND heartbeat_at = ?', [this.bootId, now, n, old.boot_id, Number(old.heartbeat_at)])
        : await this.store.run('INSERT INTO id_nodes (node, boot_id, heartbeat_at, high_ms) VALUES (?, ?, ?, ?) ON CONFLICT (node) DO NOTHING', [n, this.bootId, now, 0]);
      if (won === 1) {
        this.node = n;
        this.ids.resume(n, Number(old?.high_ms ?? 0));
        this.ids.holdUntil(aliveAt + HOLD_MS);
        return n;
      }
    }
    throw new Error('could not claim an id node: too many server processes starting at once');
  }

  /**
   * After a heartbeat written at `aliveAt`: while this process still holds its node, ids may be issued until aliveAt +
   * HOLD_MS (no peer may take the node before aliveAt + NODE_REUSE_MS); a node lost while this process was paused is
   * replaced by a fresh claim.
   */
  async confirm(aliveAt: number): Promise<void> {
    if (this.node < 0) return;
    const row = await this.store.get<{ boot_id: string }>('SELECT boot_id FROM id_nodes WHERE node = ?', [this.node]);
    if (row?.boot_id === this.bootId) return this.ids.holdUntil(aliveAt + HOLD_MS);
    this.node = -1;
    this.ids.dropHold();
    await this.claim(aliveAt);
  }

  /** Frees the node at once for the next process, keeping the high-water mark it must issue above. */
  async release(): Promise<void> {
    if (this.node < 0) return;
    this.ids.dropHold();
    await this.store.run("UPDATE id_nodes SET boot_id = '', high_ms = ? WHERE node = ? AND boot_id = ?", [this.ids.highMs, this.node, this.bootId]);
    this.node = -1;
  }
}

/** Released (no boot id), or its holder's process has not beaten for NODE_REUSE_MS (or its row is gone). */
function reusable(r: NodeRow, now: number): boolean {
  return r.boot_id === '' || r.alive_at === null || now - Number(r.alive_at) >= NODE_REUSE_MS;
}
