// Owns workflow runs and steps on the server: a run executes one published plan version step by step; each step is
// delivered as a turn (a message in the run's target mentioning its agent) or as a Human approval; steps move only by
// their assignee (approval steps by the approval's decision); every transition is checked, claimed and logged.
import { idOf, isOwner, type Actor, type DomainDeps } from '../../server/context.js';
import { listPage, normalizeLimit, type Ordering } from '../../server/pagination.js';
import type { Sql } from '../../server/store/types.js';
import { checkText, clipText } from '../../shared/bounds.js';
import { AppError } from '../../shared/errors.js';
import { Approvals } from '../approval/service.js';
import { authorizeTarget, readableTargetSql, readsTarget } from '../channel/authorize.js';
import { parseTarget } from '../../shared/target.js';
import { Messages } from '../message/service.js';
import { APPROVAL_ASSIGNEE, BOUNDS, LIVE_RUN, LIVE_RUNS_PER_MEMBER_MAX, LOG_NOTE_BYTES, RUN_LOG_MAX, RUN_STATUSES, STEP_MOVES, type LogPage, type RunDetailDto, type RunDto, type RunPage, type StepDefDto, type StepDto, type StepOutcome, type StepPage } from './contract.js';
import type { Plans, Triggers } from './plans.js';
import { LOG_COLS, LOG_ORDER, logDto, readNames, RUN_COLS, RUN_ORDER, runDto, STEP_COLS, STEP_ORDER, stepDto, type LogRow, type RunRow, type StepRow } from './rows.js';

const RUN_OF_OUTCOME: Record<StepOutcome, 'paused' | 'parked' | 'failed' | null> = { complete: null, fail: 'failed', pause: 'paused', park: 'parked' };

const agentsOf = (rows: StepRow[]) => rows.map((s) => (s.assignee === APPROVAL_ASSIGNEE ? null : s.assignee));
/** DTOs of run rows with their plans' and starters' names (one batched lookup each for the whole set). */
async function runDtos(sql: Sql, rows: RunRow[]): Promise<RunDto[]> {
  const names = await readNames(sql, { members: rows.map((r) => r.started_by), plans: rows.map((r) => r.plan_id) });
  return rows.map((r) => runDto(r, names));
}
async function stepDtos(sql: Sql, rows: StepRow[]): Promise<StepDto[]> {
  const names = await readNames(sql, { members: agentsOf(rows) });
  return rows.map((r) => stepDto(r, names));
}
/** A run with its steps in plan order (at most STEPS_MAX), read in the caller's transaction. */
async function runDetail(sql: Sql, run: RunRow): Promise<RunDetailDto> {
  const steps = await sql.all<StepRow>(`SELECT ${STEP_COLS} FROM workflow_steps WHERE run_id = ? ORDER BY idx ASC`, [run.id]);
  const names = await readNames(sql, { members: [run.started_by, ...agentsOf(steps)], plans: [run.plan_id] });
  return { ...runDto(run, names), steps: steps.map((r) => stepDto(r, names)) };
}

/** A current member as an Actor, or undefined (a removed one too). */
const currentMember = (sql: Sql, id: string) => sql.get<Actor>('SELECT id, name, kind, role FROM members WHERE id = ? AND removed_at IS NULL', [id]);

export class Runs {
  constructor(private readonly deps: DomainDeps, private readonly plans: Plans, private readonly triggers: Triggers) {}

  private now(after: number | string = 0): number {
    return Math.max(this.deps.clock.now(), Number(after));
  }

  async loadRun(sql: Sql, runId: unknown): Promise<RunRow> {
    const r = await sql.get<RunRow>(`SELECT ${RUN_COLS} FROM workflow_runs WHERE id = ?`, [idOf(runId, 'run')]);
    if (!r) throw new AppError('not_found', 'run not found');
    return r;
  }

  async loadStep(sql: Sql, stepId: unknown): Promise<StepRow> {
    const r = await sql.get<StepRow>(`SELECT ${STEP_COLS} FROM workflow_steps WHERE id = ?`, [idOf(stepId, 'step')]);
    if (!r) throw new AppError('not_found', 'step not found');
    return r;
  }

  /** A current member (a removed one is not_found: a run never posts or requests as, or delivers to, a removed member). */
  private async member(sql: Sql, id: string): Promise<Actor> {
    const m = await currentMember(sql, id);
    if (!m) throw new AppError('not_found', 'member not found');
    return m;
  }

  /** Appends one entry to a run's log (seq = the run's next log position, claimed with the run's own row). */
  private async log(sql: Sql, run: RunRow, stepId: string | null, event: string, actorId: string, note: string | null = null): Promise<void> {
    const seq = Number((await sql.get<{ s: number | null }>('SELECT MAX(seq) AS s FROM workflow_logs WHERE run_id = ?', [run.id]))?.s ?? 0) + 1;
    await sql.run(`INSERT INTO workflow_logs (${LOG_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [run.id, seq, stepId, event, actorId, note === null ? null : clipText(note, LOG_NOTE_BYTES), this.now()]);
    await sql.run('UPDATE workflow_runs SET log_count = log_count + 1 WHERE id = ?', [run.id]);
  }

  /**
   * Starts a run of a plan's published version, from the plan (with a target) or from an enabled trigger (its target).
   * Security invariant: the starter may post to the target; every step turn and approval of the run acts as the starter.
   */
  async start(actor: Actor, input: { planId?: string; triggerId?: string; target?: string }): Promise<RunDetailDto> {
    if ((input.planId === undefined) === (input.triggerId === undefined)) throw new AppError('validation_failed', 'give exactly one of planId or triggerId');
    if (input.planId !== undefined && input.target === undefined) throw new AppError('validation_failed', 'a run started from a plan needs a target');
    if (input.triggerId !== undefined && input.target !== undefined) throw new AppError('validation_failed', "a run started from a trigger uses the trigger's target");
    return this.deps.store.tx(async (sql) => {
      let planId = input.planId;
      let target = input.target;
      let triggerId: string | null = null;
      if (input.triggerId !== undefined) {
        const t = await this.triggers.readableTrigger(sql, actor, input.triggerId);
        if (t.status !== 'enabled') throw new AppError('conflict', `the trigger is ${t.status}`);
        (planId = t.plan_id), (target = t.target), (triggerId = t.id);
      }
      const p = await this.plans.loadPlan(sql, planId);
      if (p.status !== 'active') throw new AppError('conflict', 'the plan is archived');
      if (p.published_version === null) throw new AppError('conflict', 'the plan has no published version; publish it first');
      const canonical = await authorizeTarget(sql, actor, parseTarget(target));
      const live = await sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM workflow_runs WHERE started_by = ? AND status IN (${LIVE_RUN.map(() => '?').join(', ')})`, [actor.id, ...LIVE_RUN]);
      if (Number(live?.n ?? 0) >= LIVE_RUNS_PER_MEMBER_MAX) throw new AppError('conflict', `at most ${LIVE_RUNS_PER_MEMBER_MAX} live runs per member`, { hint: 'cancel one or let one finish' });
      const steps = JSON.parse((await this.plans.loadVersion(sql, p.id, Number(p.published_version))).steps) as StepDefDto[];
      await this.assigneesRead(sql, steps, canonical);
      const now = this.now();
      const runId = await this.deps.ids.next(sql, 'wfr');
      const stepIds = steps.length ? await this.deps.ids.take(sql, 'wfs', steps.length) : [];
      await sql.run(`INSERT INTO workflow_runs (${RUN_COLS}) VALUES (?, ?, ?, ?, ?, 'running', 0, ?, ?, 0, 1, ?, ?)`, [runId, p.id, p.published_version, triggerId, canonical, steps.length, actor.id, now, now]);
      for (const [i, s] of steps.entries()) {
        await sql.run(`INSERT INTO workflow_steps (${STEP_COLS}) VALUES (?, ?, ?, ?, ?, ?, 'pending', NULL, NULL, NULL, 1, ?, ?)`, [stepIds[i]!, runId, i, s.title, s.instructions ?? '', s.assignee, now, now]);
      }
      const run = await this.loadRun(sql, runId);
      await this.log(sql, run, null, 'started', actor.id);
      await this.activate(sql, run, 0);
      return runDetail(sql, await this.loadRun(sql, runId));
    });
  }

  /**
   * Each agent step's assignee may read the run's target, where its step is posted; otherwise the run would wait on a
   * step that never reaches them, so it is refused before anything is stored. The starter may read the target, so
   * naming who cannot tells them nothing new.
   */
  private async assigneesRead(sql: Sql, steps: readonly StepDefDto[], target: string): Promise<void> {
    for (const [i, s] of steps.entries()) {
      if (s.assignee === APPROVAL_ASSIGNEE) continue;
      const agent = await currentMember(sql, s.assignee);
      if (!agent || !(await readsTarget(sql, agent, target))) {
        const who = agent ? agent.name : 'a member no longer in the workspace';
        throw new AppError('validation_failed', `step ${i + 1} (${s.title}) goes to ${who}, who cannot read ${target}; it would never reach them`, { hint: 'add them to the target, or start the run where they are' });
      }
    }
  }

  /** Makes step `idx` active and delivers it: an approval request, or a message in the run's target mentioning the agent. */
  private async activate(sql: Sql, run: RunRow, idx: number): Promise<void> {
    const s = (await sql.get<StepRow>(`SELECT ${STEP_COLS} FROM workflow_steps WHERE run_id = ? AND idx = ?`, [run.id, idx]))!;
    const starter = await this.member(sql, run.started_by);
    const def = (JSON.parse((await this.plans.loadVersion(sql, run.plan_id, Number(run.version))).steps) as StepDefDto[])[idx];
    const now = this.now(s.updated_at);
    let approvalId: string | null = null;
    let messageId: string | null = null;
    try {
      if (s.assignee === APPROVAL_ASSIGNEE) {
        const listed = def?.deciders?.length ? (await readNames(sql, { members: def.deciders })).members : new Map();
        const who = [...(starter.kind === 'human' ? [`${starter.name} (the starter)`] : []), 'an admin', ...[...listed.values()].map((m) => m.name)];
        const reason = `Workflow run ${run.id} step ${idx + 1}/${run.step_count}: ${s.title}${s.instructions ? `\n${s.instructions}` : ''}\nMay decide: ${who.join(', ')}.`;
        const store = this.deps.store.within(sql);
        approvalId = (await new Approvals({ ...this.deps, store }).request(starter, { subject: `step:${s.id}`, reason, notify: run.target }, { fromRun: true })).id;
      } else {
        const agent = await this.member(sql, s.assignee);
        // Security invariant: a step is the plan's text, so it is posted as the plan's author, never as the starter (a
        // Human starter's name would lift the Human-only knowledge and loop rules; those never count a step as Human).
        const author = await this.member(sql, (await this.plans.loadPlan(sql, run.plan_id)).created_by);
        // Security invariant: a step is posted only where the run's starter may still post now.
        const target = await authorizeTarget(sql, starter, parseTarget(run.target));
        // A step its assignee cannot read would never reach them: a delivery failure, not a silent wait.
        await authorizeTarget(sql, agent, parseTarget(run.target));
        const report = `agentteam exec workflow step '{"operation":"complete","stepId":"${s.id}"}'`;
        const content = `@${agent.name} workflow run ${run.id}, step ${idx + 1}/${run.step_count}: ${s.title}${s.instructions ? `\n${s.instructions}` : ''}\nWhen done: ${report} (or fail, pause, park).`;
        messageId = (await new Messages(this.deps).insert(sql, author, target, content, null, [])).id;
      }
    } catch (e) {
      if (!(e instanceof AppError) || e.code !== 'not_found') throw e;
      await this.log(sql, run, s.id, 'delivery_failed', run.started_by, 'the target, the assignee or the plan\'s author is gone, the starter may no longer post there, or the assignee may no longer read it');
    }
    await sql.run("UPDATE workflow_steps SET status = 'active', approval_id = ?, message_id = ?, revision = revision + 1, updated_at = ? WHERE id = ? AND status = 'pending'", [approvalId, messageId, now, s.id]);
    await this.log(sql, run, s.id, approvalId ? 'approval_requested' : 'delivered', run.started_by);
  }

  /**
   * One step outcome. Security invariant: only the step's assignee moves it; an approval step moves only with its
   * approval's decision (`byApproval`). Illegal transitions are conflicts; step and run are claimed on their revisions.
   */
  async move(actor: Actor, stepId: string, outcome: StepOutcome, note?: string, byApproval = false): Promise<StepDto> {
    const n = note === undefined || note === null ? null : checkText(note, BOUNDS.note);
    return this.deps.store.tx(async (sql) => {
      // The target rule first: a step of a run the actor cannot read answers as a missing step (the approval loop is the server).
      const s = byApproval ? await this.loadStep(sql, stepId) : await this.readableStep(sql, actor, stepId);
      if (!byApproval && s.assignee === APPROVAL_ASSIGNEE) throw new AppError('denied', 'an approval step moves with its approval: decide it with agentteam exec approval approve|reject');
      if (!byApproval && s.assignee !== actor.id) throw new AppError('denied', 'only the step\'s assignee may report its outcome');
      const move = STEP_MOVES[outcome];
      if (!move.from.includes(s.status)) throw new AppError('conflict', `cannot ${outcome} a ${s.status} step`);
      const run = await this.loadRun(sql, s.run_id);
      if (!LIVE_RUN.includes(run.status)) throw new AppError('conflict', `the run is ${run.status}`);
      if ((outcome === 'pause' || outcome === 'park') && Number(run.log_count) >= RUN_LOG_MAX) throw new AppError('conflict', `the run's log is full (${RUN_LOG_MAX} entries); complete or fail the step`);
      const now = this.now(s.updated_at);
      if ((await sql.run('UPDATE workflow_steps SET status = ?, note = ?, revision = ?, updated_at = ? WHERE id = ? AND revision = ?', [move.to, n ?? s.note, Number(s.revision) + 1, now, s.id, s.revision])) !== 1) throw new AppError('conflict', 'the step changed concurrently');
      const last = Number(s.idx) + 1 >= Number(run.step_count);
      const runStatus = RUN_OF_OUTCOME[outcome] ?? (last ? 'completed' : 'running');
      const current = runStatus === 'completed' || runStatus === 'failed' ? null : outcome === 'complete' ? Number(s.idx) + 1 : Number(s.idx);
      if ((await sql.run('UPDATE workflow_runs SET status = ?, current_step = ?, revision = ?, updated_at = ? WHERE id = ? AND revision = ?', [runStatus, current, Number(run.revision) + 1, this.now(run.updated_at), run.id, run.revision])) !== 1) throw new AppError('conflict', 'the run changed concurrently');
      await this.log(sql, run, s.id, move.to, actor.id, n);
      if (outcome === 'complete' && !last) await this.activate(sql, await this.loadRun(sql, run.id), Number(s.idx) + 1);
      if (runStatus === 'completed') await this.log(sql, run, null, 'completed', actor.id);
      return (await stepDtos(sql, [await this.loadStep(sql, s.id)]))[0]!;
    });
  }

  /** Security invariant: only the run's starter or an owner/admin cancels it; its pending approval is withdrawn too. */
  async cancel(actor: Actor, runId: string): Promise<RunDetailDto> {
    return this.deps.store.tx(async (sql) => {
      // The target rule first: an unreadable run answers as a missing one, before who may cancel is checked.
      const run = await this.readableRun(sql, actor, runId);
      if (actor.id !== run.started_by && !isOwner(actor) && actor.role !== 'admin') throw new AppError('denied', 'only the run\'s starter or an owner/admin may cancel it');
      if (!LIVE_RUN.includes(run.status)) throw new AppError('conflict', `the run is already ${run.status}`);
      const now = this.now(run.updated_at);
      if ((await sql.run("UPDATE workflow_runs SET status = 'cancelled', current_step = NULL, revision = ?, updated_at = ? WHERE id = ? AND revision = ?", [Number(run.revision) + 1, now, run.id, run.revision])) !== 1) throw new AppError('conflict', 'the run changed concurrently');
      const open = await sql.all<StepRow>(`SELECT ${STEP_COLS} FROM workflow_steps WHERE run_id = ? AND status IN ('active','paused','parked')`, [run.id]);
      for (const s of open) {
        await sql.run("UPDATE workflow_steps SET status = 'cancelled', revision = revision + 1, updated_at = ? WHERE id = ?", [this.now(s.updated_at), s.id]);
        if (s.approval_id) {
          // The approval was requested as the run's starter, so it is withdrawn as the starter.
          const a = await sql.get<{ status: string }>('SELECT status FROM approvals WHERE id = ?', [s.approval_id]);
          const requester = await sql.get('SELECT 1 AS x FROM members WHERE id = ? AND removed_at IS NULL', [run.started_by]);
          if (a?.status === 'pending' && requester) await new Approvals({ ...this.deps, store: this.deps.store.within(sql) }).cancel(await this.member(sql, run.started_by), s.approval_id);
        }
      }
      await this.log(sql, run, null, 'cancelled', actor.id);
      return runDetail(sql, await this.loadRun(sql, run.id));
    });
  }

  /**
   * A run the actor may read. Security invariant: a run (its steps, logs and posted step text) is read only by members
   * who may read its target; any other answers exactly like a missing run, so its existence does not leak.
   */
  private async readableRun(sql: Sql, actor: Actor, runId: unknown): Promise<RunRow> {
    const run = await this.loadRun(sql, runId);
    if (!(await readsTarget(sql, actor, run.target))) throw new AppError('not_found', 'run not found');
    return run;
  }

  async show(actor: Actor, runId: string): Promise<RunDetailDto> {
    return this.deps.store.tx(async (sql) => runDetail(sql, await this.readableRun(sql, actor, runId)));
  }

  /** A step of a run the actor may read (readableRun's rule); any other answers exactly like a missing step. */
  private async readableStep(sql: Sql, actor: Actor, stepId: unknown): Promise<StepRow> {
    const step = await this.loadStep(sql, stepId);
    const run = await sql.get<{ target: string }>('SELECT target FROM workflow_runs WHERE id = ?', [step.run_id]);
    if (!run || !(await readsTarget(sql, actor, run.target))) throw new AppError('not_found', 'step not found');
    return step;
  }

  async getStep(actor: Actor, stepId: string): Promise<StepDto> {
    return this.deps.store.tx(async (sql) => (await stepDtos(sql, [await this.readableStep(sql, actor, stepId)]))[0]!);
  }

  async list(actor: Actor, input: { planId?: string; status?: string; limit?: number; cursor?: string }): Promise<RunPage> {
    if (input.status !== undefined && !(RUN_STATUSES as readonly string[]).includes(input.status)) throw new AppError('validation_failed', `status must be one of: ${RUN_STATUSES.join(', ')}`);
    if (input.planId !== undefined) idOf(input.planId, 'plan');
    normalizeLimit(input.limit);
    // Only runs whose target the actor may read.
    const readable = readableTargetSql(actor, 'workflow_runs.target');
    const where = [readable.sql];
    const params: string[] = [...readable.params];
    if (input.planId !== undefined) (where.push('plan_id = ?'), params.push(input.planId));
    if (input.status !== undefined) (where.push('status = ?'), params.push(input.status));
    const q = { ordering: RUN_ORDER, columns: RUN_COLS, from: 'workflow_runs', where: where.join(' AND '), params, filter: { planId: input.planId ?? null, status: input.status ?? null }, limit: input.limit, cursor: input.cursor };
    return this.deps.store.tx((sql) => listPage(sql, this.deps.cursors, 'runs', q, (rows: RunRow[]) => runDtos(sql, rows)));
  }

  steps(actor: Actor, runId: string, input: { limit?: number; cursor?: string }): Promise<StepPage> {
    return this.runPage(actor, runId, 'steps', STEP_ORDER, STEP_COLS, 'workflow_steps', input, stepDtos);
  }

  logs(actor: Actor, runId: string, input: { limit?: number; cursor?: string }): Promise<LogPage> {
    return this.runPage(actor, runId, 'logs', LOG_ORDER, LOG_COLS, 'workflow_logs', input, async (sql, rows: LogRow[]) => {
      const names = await readNames(sql, { members: rows.map((r) => r.actor_id), ...(rows[0] ? { stepsOfRun: rows[0].run_id } : {}) });
      return rows.map((r) => logDto(r, names));
    });
  }

  /** One keyset page of a run's rows in `from` (its steps or its logs), for a member who may read the run, as DTOs under `key`. */
  private async runPage<K extends string, R, D>(actor: Actor, runId: string, key: K, ordering: Ordering, columns: string, from: string, input: { limit?: number; cursor?: string }, dtos: (sql: Sql, rows: R[]) => Promise<D[]>) {
    normalizeLimit(input.limit);
    return this.deps.store.tx(async (sql) => {
      const run = await this.readableRun(sql, actor, runId);
      return listPage(sql, this.deps.cursors, key, { ordering, columns, from, where: 'run_id = ?', params: [run.id], filter: { runId: run.id }, limit: input.limit, cursor: input.cursor }, (rows: R[]) => dtos(sql, rows));
    });
  }
}
