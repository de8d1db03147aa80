// Owns who may decide a workflow run's approval step: the run's starter, a workspace owner/admin, or a member the
// step's plan version lists as a decider (read from the frozen published version, so nobody can add themselves later).
import { isOwner, type Actor } from '../../server/context.js';
import type { Sql } from '../../server/store/types.js';
import type { StepDefDto } from './contract.js';

/**
 * Whether `actor` may decide approval `approvalId`: true unless it is a run's approval step and the actor is none of its
 * deciders. The approval owner calls this after its own read check (an unreadable approval is already not_found).
 */
export async function mayDecideApproval(sql: Sql, actor: Actor, approvalId: string): Promise<boolean> {
  const step = await sql.get<{ idx: number; started_by: string; plan_id: string; version: number }>(
    'SELECT s.idx AS idx, r.started_by AS started_by, r.plan_id AS plan_id, r.version AS version FROM workflow_steps s JOIN workflow_runs r ON r.id = s.run_id WHERE s.approval_id = ?',
    [approvalId],
  );
  if (!step) return true;
  // Security invariant: a run's approval gate is decided only by its starter, an owner/admin, or a decider the step lists.
  if (actor.id === step.started_by || isOwner(actor) || actor.role === 'admin') return true;
  const v = await sql.get<{ steps: string }>('SELECT steps FROM workflow_plan_versions WHERE plan_id = ? AND version = ?', [step.plan_id, Number(step.version)]);
  const def = v ? (JSON.parse(v.steps) as StepDefDto[])[Number(step.idx)] : undefined;
  return def?.deciders?.includes(actor.id) ?? false;
}
