// Owns the `workflow` storage rows: column lists, row types, the batched name lookups, DTO mapping and the keyset
// orderings of every collection.
import { iso } from '../../server/context.js';
import type { Ordering } from '../../server/pagination.js';
import type { Sql } from '../../server/store/types.js';
import { clipText } from '../../shared/bounds.js';
import { memberNames, nameOf, type MemberName } from '../member/names.js';
import { APPROVAL_ASSIGNEE, BOUNDS, type LogEntryDto, type PlanDto, type PlanVersionDto, type RunDto, type RunStatus, type StepDefDto, type StepDto, type StepStatus, type TriggerDto } from './contract.js';

export interface PlanRow { id: string; name: string; status: 'active' | 'archived'; latest_version: number; published_version: number | null; created_by: string; revision: number; created_at: number; updated_at: number }
export interface VersionRow { plan_id: string; version: number; state: 'draft' | 'published'; steps: string; created_at: number; published_at: number | null }
export interface TriggerRow { id: string; plan_id: string; name: string; kind: 'manual'; target: string; status: 'enabled' | 'disabled' | 'archived'; created_by: string; revision: number; created_at: number; updated_at: number }
export interface RunRow { id: string; plan_id: string; version: number; trigger_id: string | null; target: string; status: RunStatus; current_step: number | null; step_count: number; started_by: string; log_count: number; revision: number; created_at: number; updated_at: number }
export interface StepRow { id: string; run_id: string; idx: number; title: string; instructions: string; assignee: string; status: StepStatus; approval_id: string | null; message_id: string | null; note: string | null; revision: number; created_at: number; updated_at: number }
export interface LogRow { run_id: string; seq: number; step_id: string | null; event: string; actor_id: string; note: string | null; created_at: number }

export const PLAN_COLS = 'id, name, status, latest_version, published_version, created_by, revision, created_at, updated_at';
export const VERSION_COLS = 'plan_id, version, state, steps, created_at, published_at';
export const TRIGGER_COLS = 'id, plan_id, name, kind, target, status, created_by, revision, created_at, updated_at';
export const RUN_COLS = 'id, plan_id, version, trigger_id, target, status, current_step, step_count, started_by, log_count, revision, created_at, updated_at';
export const STEP_COLS = 'id, run_id, idx, title, instructions, assignee, status, approval_id, message_id, note, revision, created_at, updated_at';
export const LOG_COLS = 'run_id, seq, step_id, event, actor_id, note, created_at';

const newestFirst = (collection: string): Ordering => ({
  collection,
  keys: [
    { column: 'created_at', field: 'created_at', dir: 'DESC', type: 'timestamp' },
    { column: 'id', field: 'id', dir: 'DESC', type: 'text' },
  ],
});
/** Plans, triggers and runs: newest first (createdAt never changes, so no moved check is needed). */
export const PLAN_ORDER = newestFirst('workflow_plans');
export const TRIGGER_ORDER = newestFirst('workflow_triggers');
export const RUN_ORDER = newestFirst('workflow_runs');
/** A run's steps in plan order. */
export const STEP_ORDER: Ordering = { collection: 'workflow_steps', keys: [{ column: 'idx', field: 'idx', dir: 'ASC', type: 'integer' }] };
/** A run's log in the order it was written. */
export const LOG_ORDER: Ordering = { collection: 'workflow_logs', keys: [{ column: 'seq', field: 'seq', dir: 'ASC', type: 'integer' }] };

const n = Number;
const at = (v: number | null) => (v === null ? null : iso(n(v)));

/** What DTOs name besides ids: members (name, kind), plans (name) and step positions, each read in one batched query. */
export interface Names {
  members: Map<string, MemberName>;
  plans: Map<string, string>;
  steps: Map<string, number>;
}

/** Plan ids per query (a page holds at most 100 runs). */
const PLANS_BATCH_MAX = 100;

/** The names a set of rows refers to: one query per kind, never one per row (step positions: the given run's, ≤ STEPS_MAX). */
export async function readNames(sql: Pick<Sql, 'all'>, want: { members?: Iterable<string | null>; plans?: Iterable<string>; stepsOfRun?: string }): Promise<Names> {
  const names: Names = { members: await memberNames(sql, want.members ?? []), plans: new Map(), steps: new Map() };
  const planIds = [...new Set(want.plans ?? [])];
  for (let i = 0; i < planIds.length; i += PLANS_BATCH_MAX) {
    const batch = planIds.slice(i, i + PLANS_BATCH_MAX);
    const rows = await sql.all<{ id: string; name: string }>(`SELECT id, name FROM workflow_plans WHERE id IN (${batch.map(() => '?').join(', ')})`, batch);
    for (const r of rows) names.plans.set(r.id, clipText(r.name, BOUNDS.name.bytes));
  }
  if (want.stepsOfRun !== undefined) for (const r of await sql.all<{ id: string; idx: number }>('SELECT id, idx FROM workflow_steps WHERE run_id = ?', [want.stepsOfRun])) names.steps.set(r.id, n(r.idx));
  return names;
}

export const planDto = (r: PlanRow, names: Names): PlanDto => ({ id: r.id, name: r.name, status: r.status, latestVersion: n(r.latest_version), publishedVersion: r.published_version === null ? null : n(r.published_version), createdBy: r.created_by, creator: nameOf(names.members, r.created_by), revision: n(r.revision), createdAt: iso(n(r.created_at)), updatedAt: iso(n(r.updated_at)) });
export const versionDto = (r: VersionRow): PlanVersionDto => ({ planId: r.plan_id, version: n(r.version), state: r.state, steps: JSON.parse(r.steps) as StepDefDto[], createdAt: iso(n(r.created_at)), publishedAt: at(r.published_at) });
export const triggerDto = (r: TriggerRow, names: Names): TriggerDto => ({ id: r.id, planId: r.plan_id, name: r.name, kind: r.kind, target: r.target, status: r.status, createdBy: r.created_by, creator: nameOf(names.members, r.created_by), revision: n(r.revision), createdAt: iso(n(r.created_at)), updatedAt: iso(n(r.updated_at)) });
export const runDto = (r: RunRow, names: Names): RunDto => ({ id: r.id, planId: r.plan_id, planName: names.plans.get(r.plan_id) ?? r.plan_id, version: n(r.version), triggerId: r.trigger_id, target: r.target, status: r.status, currentStep: r.current_step === null ? null : n(r.current_step), stepCount: n(r.step_count), startedBy: r.started_by, starter: nameOf(names.members, r.started_by), revision: n(r.revision), createdAt: iso(n(r.created_at)), updatedAt: iso(n(r.updated_at)) });
export const stepDto = (r: StepRow, names: Names): StepDto => ({ id: r.id, runId: r.run_id, index: n(r.idx), title: r.title, instructions: r.instructions, assignee: r.assignee, agent: r.assignee === APPROVAL_ASSIGNEE ? null : nameOf(names.members, r.assignee), status: r.status, approvalId: r.approval_id, messageId: r.message_id, note: r.note === null ? null : clipText(r.note, BOUNDS.note.bytes), revision: n(r.revision), createdAt: iso(n(r.created_at)), updatedAt: iso(n(r.updated_at)) });
export const logDto = (r: LogRow, names: Names): LogEntryDto => ({ seq: n(r.seq), runId: r.run_id, stepId: r.step_id, stepIndex: r.step_id === null ? null : (names.steps.get(r.step_id) ?? null), event: r.event, actorId: r.actor_id, actor: nameOf(names.members, r.actor_id), note: r.note, createdAt: iso(n(r.created_at)) });
