// Owns workflow plans and triggers on the server: versioned step definitions (a published version never changes; an
// update after publish opens a new draft), manual triggers bound to a plan and a target, keyset lists, validation.
import { idOf, isOwner, type Actor, type DomainDeps } from '../../server/context.js';
import { listPage, normalizeLimit } from '../../server/pagination.js';
import type { Sql } from '../../server/store/types.js';
import { checkText, jsonBytes } from '../../shared/bounds.js';
import { AppError } from '../../shared/errors.js';
import { authorizeTarget, readableTargetSql, readsTarget } from '../channel/authorize.js';
import { parseTarget } from '../../shared/target.js';
import { APPROVAL_ASSIGNEE, BOUNDS, DECIDERS_MAX, LIVE_PLANS_PER_MEMBER_MAX, LIVE_TRIGGERS_PER_MEMBER_MAX, PLAN_STATUSES, STEPS_BYTES_MAX, STEPS_MAX, TRIGGER_STATUSES, type PlanDto, type PlanPage, type PlanVersionDto, type StepDefDto, type TriggerDto, type TriggerPage, type Validation } from './contract.js';
import { PLAN_COLS, PLAN_ORDER, planDto, readNames, TRIGGER_COLS, TRIGGER_ORDER, triggerDto, VERSION_COLS, versionDto, type PlanRow, type TriggerRow, type VersionRow } from './rows.js';

/** DTOs of plan or trigger rows with their creators' names (one batched lookup for the whole set). */
const plans = async (sql: Sql, rows: PlanRow[]): Promise<PlanDto[]> => {
  const names = await readNames(sql, { members: rows.map((r) => r.created_by) });
  return rows.map((r) => planDto(r, names));
};
const triggers = async (sql: Sql, rows: TriggerRow[]): Promise<TriggerDto[]> => {
  const names = await readNames(sql, { members: rows.map((r) => r.created_by) });
  return rows.map((r) => triggerDto(r, names));
};
const onePlan = async (sql: Sql, r: PlanRow): Promise<PlanDto> => (await plans(sql, [r]))[0]!;
const oneTrigger = async (sql: Sql, r: TriggerRow): Promise<TriggerDto> => (await triggers(sql, [r]))[0]!;

/** Security invariant: a plan or trigger is changed only by its creator or a workspace owner/admin. */
export function requireEditor(actor: Actor, createdBy: string, what: string): void {
  if (actor.id !== createdBy && !isOwner(actor) && actor.role !== 'admin') throw new AppError('denied', `only its creator or an owner/admin may change this ${what}`);
}

function oneOf<T extends string>(v: unknown, xs: readonly T[], field: string): T | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !(xs as readonly string[]).includes(v)) throw new AppError('validation_failed', `${field} must be one of: ${xs.join(', ')}`);
  return v as T;
}

function checkRevision(expected: number | undefined, actual: number): void {
  if (expected !== undefined && expected !== Number(actual)) throw new AppError('conflict', `revision is ${actual}, not ${expected}`, { hint: 'read it again and retry with the current revision' });
}

/** Checks ordered steps: count, each field's bound, the aggregate's bytes, and that each assignee is a current agent (or "approval"). */
export async function checkSteps(sql: Sql, steps: unknown): Promise<StepDefDto[]> {
  if (!Array.isArray(steps) || steps.length < 1 || steps.length > STEPS_MAX) throw new AppError('validation_failed', `steps must hold 1 to ${STEPS_MAX} steps`);
  const out: StepDefDto[] = [];
  for (const [i, s] of steps.entries()) {
    if (!s || typeof s !== 'object' || Array.isArray(s)) throw new AppError('validation_failed', `steps[${i}] must be an object`);
    const { title, instructions, assignee, deciders } = s as Record<string, unknown>;
    const step: StepDefDto = { title: checkText(title, { ...BOUNDS.title, field: `steps[${i}].title` }), assignee: '' };
    if (instructions !== undefined) step.instructions = checkText(instructions, { ...BOUNDS.instructions, field: `steps[${i}].instructions` });
    if (assignee !== APPROVAL_ASSIGNEE) {
      if (typeof assignee !== 'string' || !(await sql.get("SELECT 1 AS x FROM members WHERE id = ? AND kind = 'agent' AND removed_at IS NULL", [idOf(assignee, 'assignee')]))) {
        throw new AppError('validation_failed', `steps[${i}].assignee must be an agent's member id or "${APPROVAL_ASSIGNEE}"`);
      }
    }
    step.assignee = assignee as string;
    if (deciders !== undefined) step.deciders = await checkDeciders(sql, deciders, assignee === APPROVAL_ASSIGNEE, i);
    out.push(step);
  }
  if (jsonBytes(out) > STEPS_BYTES_MAX) throw new AppError('validation_failed', `steps serialize to more than ${STEPS_BYTES_MAX} bytes`);
  return out;
}

/** An approval step's deciders: 1 to DECIDERS_MAX distinct ids of current Human members (only Humans decide). */
async function checkDeciders(sql: Sql, deciders: unknown, approval: boolean, i: number): Promise<string[]> {
  const field = `steps[${i}].deciders`;
  if (!approval) throw new AppError('validation_failed', `${field} is only for an approval step`);
  if (!Array.isArray(deciders) || deciders.length < 1 || deciders.length > DECIDERS_MAX || new Set(deciders).size !== deciders.length) throw new AppError('validation_failed', `${field} must hold 1 to ${DECIDERS_MAX} distinct member ids`);
  for (const d of deciders) {
    if (typeof d !== 'string' || !(await sql.get("SELECT 1 AS x FROM members WHERE id = ? AND kind = 'human' AND removed_at IS NULL", [idOf(d, 'decider')]))) throw new AppError('validation_failed', `${field} must hold Human member ids`);
  }
  return deciders as string[];
}

/** Security invariant (bounded per-member aggregate): a member's live plans or triggers stop at `max`, the error names it. */
async function checkLive(sql: Sql, table: 'workflow_plans' | 'workflow_triggers', memberId: string, max: number, what: string): Promise<void> {
  const n = await sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE created_by = ? AND status <> 'archived'`, [memberId]);
  if (Number(n?.n ?? 0) >= max) throw new AppError('conflict', `at most ${max} live ${what} per member`, { hint: `archive one of your ${what} first` });
}

export class Plans {
  constructor(private readonly deps: DomainDeps) {}

  private now(after = 0): number {
    return Math.max(this.deps.clock.now(), Number(after));
  }

  async loadPlan(sql: Sql, planId: unknown): Promise<PlanRow> {
    const r = await sql.get<PlanRow>(`SELECT ${PLAN_COLS} FROM workflow_plans WHERE id = ?`, [idOf(planId, 'plan')]);
    if (!r) throw new AppError('not_found', 'plan not found');
    return r;
  }

  async loadVersion(sql: Sql, planId: string, version: number): Promise<VersionRow> {
    const v = await sql.get<VersionRow>(`SELECT ${VERSION_COLS} FROM workflow_plan_versions WHERE plan_id = ? AND version = ?`, [planId, version]);
    if (!v) throw new AppError('not_found', 'plan version not found');
    return v;
  }

  async create(actor: Actor, input: { name: string; steps: unknown }): Promise<PlanDto> {
    const name = checkText(input.name, BOUNDS.name);
    return this.deps.store.tx(async (sql) => {
      const steps = await checkSteps(sql, input.steps);
      await checkLive(sql, 'workflow_plans', actor.id, LIVE_PLANS_PER_MEMBER_MAX, 'plans');
      const now = this.now();
      const id = await this.deps.ids.next(sql, 'wfp');
      await sql.run(`INSERT INTO workflow_plans (${PLAN_COLS}) VALUES (?, ?, 'active', 1, NULL, ?, 1, ?, ?)`, [id, name, actor.id, now, now]);
      await sql.run(`INSERT INTO workflow_plan_versions (${VERSION_COLS}) VALUES (?, 1, 'draft', ?, ?, NULL)`, [id, JSON.stringify(steps), now]);
      return onePlan(sql, await this.loadPlan(sql, id));
    });
  }

  /** A draft latest version is edited in place; a published one is never changed: the steps go into a new draft. */
  async update(actor: Actor, planId: string, input: { revision: number; name?: string; steps?: unknown }): Promise<PlanDto> {
    if (input.name === undefined && input.steps === undefined) throw new AppError('validation_failed', 'give name or steps to change');
    const name = input.name === undefined ? undefined : checkText(input.name, BOUNDS.name);
    return this.deps.store.tx(async (sql) => {
      const p = await this.loadPlan(sql, planId);
      requireEditor(actor, p.created_by, 'plan');
      if (p.status !== 'active') throw new AppError('conflict', 'an archived plan cannot change');
      checkRevision(input.revision, p.revision);
      const steps = input.steps === undefined ? undefined : await checkSteps(sql, input.steps);
      const now = this.now(p.updated_at);
      let latest = Number(p.latest_version);
      if (steps) {
        const v = await this.loadVersion(sql, p.id, latest);
        if (v.state === 'draft') await sql.run("UPDATE workflow_plan_versions SET steps = ? WHERE plan_id = ? AND version = ? AND state = 'draft'", [JSON.stringify(steps), p.id, latest]);
        else await sql.run(`INSERT INTO workflow_plan_versions (${VERSION_COLS}) VALUES (?, ?, 'draft', ?, ?, NULL)`, [p.id, ++latest, JSON.stringify(steps), now]);
      }
      const changed = await sql.run('UPDATE workflow_plans SET name = ?, latest_version = ?, revision = ?, updated_at = ? WHERE id = ? AND revision = ?', [name ?? p.name, latest, Number(p.revision) + 1, now, p.id, p.revision]);
      if (changed !== 1) throw new AppError('conflict', 'the plan changed concurrently', { hint: 'read it again' });
      return onePlan(sql, await this.loadPlan(sql, p.id));
    });
  }

  /** Freezes the latest draft: from now on that version never changes and runs may start from it. */
  async publish(actor: Actor, planId: string, input: { revision?: number }): Promise<PlanDto> {
    return this.deps.store.tx(async (sql) => {
      const p = await this.loadPlan(sql, planId);
      requireEditor(actor, p.created_by, 'plan');
      if (p.status !== 'active') throw new AppError('conflict', 'an archived plan cannot be published');
      checkRevision(input.revision, p.revision);
      const v = await this.loadVersion(sql, p.id, Number(p.latest_version));
      if (v.state !== 'draft') throw new AppError('conflict', `version ${v.version} is already published; update the plan to open a new draft`);
      const now = this.now(p.updated_at);
      await sql.run("UPDATE workflow_plan_versions SET state = 'published', published_at = ? WHERE plan_id = ? AND version = ? AND state = 'draft'", [now, p.id, v.version]);
      if ((await sql.run('UPDATE workflow_plans SET published_version = ?, revision = ?, updated_at = ? WHERE id = ? AND revision = ?', [v.version, Number(p.revision) + 1, now, p.id, p.revision])) !== 1) throw new AppError('conflict', 'the plan changed concurrently');
      return onePlan(sql, await this.loadPlan(sql, p.id));
    });
  }

  async archive(actor: Actor, planId: string, input: { revision?: number }): Promise<PlanDto> {
    return this.deps.store.tx(async (sql) => {
      const p = await this.loadPlan(sql, planId);
      requireEditor(actor, p.created_by, 'plan');
      if (p.status !== 'active') throw new AppError('conflict', 'the plan is already archived');
      checkRevision(input.revision, p.revision);
      if ((await sql.run("UPDATE workflow_plans SET status = 'archived', revision = ?, updated_at = ? WHERE id = ? AND revision = ?", [Number(p.revision) + 1, this.now(p.updated_at), p.id, p.revision])) !== 1) throw new AppError('conflict', 'the plan changed concurrently');
      return onePlan(sql, await this.loadPlan(sql, p.id));
    });
  }

  async list(_actor: Actor, input: { status?: string; limit?: number; cursor?: string }): Promise<PlanPage> {
    const status = oneOf(input.status, PLAN_STATUSES, 'status');
    normalizeLimit(input.limit);
    const q = { ordering: PLAN_ORDER, columns: PLAN_COLS, from: 'workflow_plans', where: status ? 'status = ?' : '1 = 1', params: status ? [status] : [], filter: { status: status ?? null }, limit: input.limit, cursor: input.cursor };
    return this.deps.store.tx((sql) => listPage(sql, this.deps.cursors, 'plans', q, (rows: PlanRow[]) => plans(sql, rows)));
  }

  /** The plan and its latest version (the draft being edited, or the last published one). */
  async show(_actor: Actor, planId: string): Promise<{ plan: PlanDto; version: PlanVersionDto }> {
    return this.deps.store.tx(async (sql) => {
      const p = await this.loadPlan(sql, planId);
      return { plan: await onePlan(sql, p), version: versionDto(await this.loadVersion(sql, p.id, Number(p.latest_version))) };
    });
  }

  async version(_actor: Actor, planId: string, version: unknown): Promise<PlanVersionDto> {
    const v = typeof version === 'string' && /^[1-9][0-9]{0,8}$/.test(version) ? Number(version) : NaN;
    if (!Number.isInteger(v)) throw new AppError('validation_failed', 'version must be a positive integer');
    return this.deps.store.tx(async (sql) => versionDto(await this.loadVersion(sql, (await this.loadPlan(sql, planId)).id, v)));
  }

  /** The same checks as create, storing nothing. */
  async validate(_actor: Actor, input: { name?: string; steps: unknown }): Promise<Validation> {
    try {
      if (input.name !== undefined) checkText(input.name, BOUNDS.name);
      await this.deps.store.tx((sql) => checkSteps(sql, input.steps));
      return { valid: true };
    } catch (e) {
      if (e instanceof AppError && (e.code === 'validation_failed' || e.code === 'not_found')) return { valid: false, problem: e.message };
      throw e;
    }
  }
}

export class Triggers {
  constructor(private readonly deps: DomainDeps, private readonly plans: Plans) {}

  async loadTrigger(sql: Sql, triggerId: unknown): Promise<TriggerRow> {
    const r = await sql.get<TriggerRow>(`SELECT ${TRIGGER_COLS} FROM workflow_triggers WHERE id = ?`, [idOf(triggerId, 'trigger')]);
    if (!r) throw new AppError('not_found', 'trigger not found');
    return r;
  }

  /**
   * A trigger the actor may read. Security invariant: a trigger (read or written, or a run started from it) is seen only
   * by members who may read its target; any other gets exactly a missing trigger's answer, before any other check.
   */
  async readableTrigger(sql: Sql, actor: Actor, triggerId: unknown): Promise<TriggerRow> {
    const r = await this.loadTrigger(sql, triggerId);
    if (!(await readsTarget(sql, actor, r.target))) throw new AppError('not_found', 'trigger not found');
    return r;
  }

  /** The plan must be active; security invariant: the target is one its creator may post to. */
  private async checked(sql: Sql, actor: Actor, input: { planId: unknown; name: unknown; target: unknown }): Promise<{ planId: string; name: string; target: string }> {
    const name = checkText(input.name, BOUNDS.name);
    const t = parseTarget(input.target);
    const p = await this.plans.loadPlan(sql, input.planId);
    if (p.status !== 'active') throw new AppError('conflict', 'the plan is archived');
    return { planId: p.id, name, target: await authorizeTarget(sql, actor, t) };
  }

  async create(actor: Actor, input: { planId: string; name: string; target: string }): Promise<TriggerDto> {
    return this.deps.store.tx(async (sql) => {
      const c = await this.checked(sql, actor, input);
      await checkLive(sql, 'workflow_triggers', actor.id, LIVE_TRIGGERS_PER_MEMBER_MAX, 'triggers');
      const now = this.deps.clock.now();
      const id = await this.deps.ids.next(sql, 'wft');
      await sql.run(`INSERT INTO workflow_triggers (${TRIGGER_COLS}) VALUES (?, ?, ?, 'manual', ?, 'enabled', ?, 1, ?, ?)`, [id, c.planId, c.name, c.target, actor.id, now, now]);
      return oneTrigger(sql, await this.loadTrigger(sql, id));
    });
  }

  async validate(actor: Actor, input: { planId: string; name: string; target: string }): Promise<Validation> {
    try {
      await this.deps.store.tx((sql) => this.checked(sql, actor, input));
      return { valid: true };
    } catch (e) {
      if (e instanceof AppError && ['validation_failed', 'not_found', 'conflict'].includes(e.code)) return { valid: false, problem: e.message };
      throw e;
    }
  }

  private async change(actor: Actor, triggerId: string, revision: number | undefined, fn: (r: TriggerRow, sql: Sql) => Promise<Partial<Pick<TriggerRow, 'name' | 'target' | 'status'>>>): Promise<TriggerDto> {
    return this.deps.store.tx(async (sql) => {
      const r = await this.readableTrigger(sql, actor, triggerId);
      requireEditor(actor, r.created_by, 'trigger');
      if (r.status === 'archived') throw new AppError('conflict', 'the trigger is archived');
      checkRevision(revision, r.revision);
      const next = { ...r, ...(await fn(r, sql)) };
      const now = Math.max(this.deps.clock.now(), Number(r.updated_at));
      const n = await sql.run('UPDATE workflow_triggers SET name = ?, target = ?, status = ?, revision = ?, updated_at = ? WHERE id = ? AND revision = ?', [next.name, next.target, next.status, Number(r.revision) + 1, now, r.id, r.revision]);
      if (n !== 1) throw new AppError('conflict', 'the trigger changed concurrently', { hint: 'read it again' });
      return oneTrigger(sql, await this.loadTrigger(sql, r.id));
    });
  }

  update(actor: Actor, triggerId: string, input: { revision: number; name?: string; target?: string }): Promise<TriggerDto> {
    if (input.name === undefined && input.target === undefined) throw new AppError('validation_failed', 'give name or target to change');
    return this.change(actor, triggerId, input.revision, async (r, sql) => {
      const c = await this.checked(sql, actor, { planId: r.plan_id, name: input.name ?? r.name, target: input.target ?? r.target });
      return { name: c.name, target: c.target };
    });
  }

  /** enable ↔ disable; the same state again, or an archived trigger, is a conflict. */
  setStatus(actor: Actor, triggerId: string, to: 'enabled' | 'disabled' | 'archived', revision?: number): Promise<TriggerDto> {
    return this.change(actor, triggerId, revision, async (r) => {
      if (r.status === to) throw new AppError('conflict', `the trigger is already ${to}`);
      return { status: to };
    });
  }

  async list(actor: Actor, input: { planId?: string; status?: string; limit?: number; cursor?: string }): Promise<TriggerPage> {
    const status = oneOf(input.status, TRIGGER_STATUSES, 'status');
    if (input.planId !== undefined) idOf(input.planId, 'plan');
    normalizeLimit(input.limit);
    // Only triggers whose target the actor may read (readableTrigger's rule, in the query).
    const readable = readableTargetSql(actor, 'workflow_triggers.target');
    const where = [readable.sql];
    const params: string[] = [...readable.params];
    if (input.planId !== undefined) (where.push('plan_id = ?'), params.push(input.planId));
    if (status) (where.push('status = ?'), params.push(status));
    const q = { ordering: TRIGGER_ORDER, columns: TRIGGER_COLS, from: 'workflow_triggers', where: where.join(' AND '), params, filter: { planId: input.planId ?? null, status: status ?? null }, limit: input.limit, cursor: input.cursor };
    return this.deps.store.tx((sql) => listPage(sql, this.deps.cursors, 'triggers', q, (rows: TriggerRow[]) => triggers(sql, rows)));
  }

  async show(actor: Actor, triggerId: string): Promise<TriggerDto> {
    return this.deps.store.tx(async (sql) => oneTrigger(sql, await this.readableTrigger(sql, actor, triggerId)));
  }
}
