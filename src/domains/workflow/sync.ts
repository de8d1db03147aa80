// Owns moving approval steps with their approval's decision: a loop on the injected Clock finds active approval steps
// whose approval is decided and completes (approved) or fails (rejected, cancelled) them, claimed on the step's revision.
import type { Actor, DomainDeps } from '../../server/context.js';
import { AppError } from '../../shared/errors.js';
import { TickLoop } from '../module.js';
import type { Runs } from './runs.js';

export const SYNC_TICK_MS = 1000;
/** Approval steps moved per tick at most; the rest move at the next tick. */
export const SYNC_BATCH = 50;

export class ApprovalSync extends TickLoop {
  constructor(private readonly deps: DomainDeps, private readonly runs: Runs) {
    super(deps.clock, SYNC_TICK_MS);
  }

  /** One pass; returns how many steps this process moved (another process that moved one first wins; this one skips it). */
  protected async pass(): Promise<number> {
    const due = await this.deps.store.all<{ id: string; status: string; decided_by: string | null; requested_by: string; note: string | null }>(
      `SELECT s.id, a.status, a.decided_by, a.requested_by, a.note FROM workflow_steps s JOIN approvals a ON a.id = s.approval_id
        WHERE s.status = 'active' AND a.status <> 'pending' ORDER BY s.updated_at ASC, s.id ASC LIMIT ?`,
      [SYNC_BATCH],
    );
    let moved = 0;
    for (const d of due) {
      const who = await this.deps.store.get<Actor>('SELECT id, name, kind, role FROM members WHERE id = ?', [d.decided_by ?? d.requested_by]);
      if (!who) continue;
      try {
        await this.runs.move(who, d.id, d.status === 'approved' ? 'complete' : 'fail', d.note ?? `approval ${d.status}`, true);
        moved++;
      } catch (e) {
        if (!(e instanceof AppError) || e.code !== 'conflict') throw e;
      }
    }
    return moved;
  }
}
