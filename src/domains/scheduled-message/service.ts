// Owns scheduled messages on the server: create on a target the creator may post to, get, keyset list (createdAt DESC,
// id DESC), update, enable/disable, delete, and the runs history (COALESCE(attemptedAt, createdAt) DESC, id DESC).
import { AppError } from '../../shared/errors.js';
import { checkText } from '../../shared/bounds.js';
import { idOf, isOwner, iso, type Actor, type DomainDeps } from '../../server/context.js';
import { listPage, normalizeLimit, type Ordering } from '../../server/pagination.js';
import type { Sql } from '../../server/store/types.js';
import { authorizeTarget } from '../channel/authorize.js';
import { parseTarget } from '../../shared/target.js';
import { ENABLED_PER_MEMBER_MAX, MISSED_POLICIES, SCHEDULES_PER_MEMBER_MAX, SCHEDULE_CONTENT, type CreateInput, type MissedPolicy, type RunPage, type RunStatus, type ScheduleDto, type ScheduleRunDto, type SchedulePage, type UpdateInput } from './contract.js';
import { logStop } from './stops.js';
import { checkTiming, nextAfter, type Timing } from './timing.js';

export interface ScheduleRow {
  id: string;
  target: string;
  content: string;
  at: number | null;
  cron: string | null;
  time_zone: string | null;
  missed_policy: MissedPolicy;
  enabled: number;
  next_run_at: number | null;
  created_by: string;
  revision: number;
  created_at: number;
  updated_at: number;
  /** Set when someone other than the creator deleted it: it stays, disabled, for the creator only. */
  deleted_by?: string | null;
}
interface RunRow {
  id: string;
  schedule_id: string;
  scheduled_for: number;
  status: RunStatus;
  occurrences: number;
  message_id: string | null;
  error: string | null;
  actor_id: string | null;
  effective_at: number;
  created_at: number;
}

export const SCHEDULE_COLS = 'id, target, content, at, cron, time_zone, missed_policy, enabled, next_run_at, created_by, revision, created_at, updated_at';
const RUN_COLS = 'id, schedule_id, scheduled_for, status, occurrences, message_id, error, actor_id, COALESCE(attempted_at, created_at) AS effective_at, created_at';

/** Newest first; createdAt never changes, so the order needs no moved check. */
export const SCHEDULE_ORDER: Ordering = {
  collection: 'scheduled_messages',
  keys: [
    { column: 'created_at', field: 'created_at', dir: 'DESC', type: 'timestamp' },
    { column: 'id', field: 'id', dir: 'DESC', type: 'text' },
  ],
};
/** The spec's runs order: the effective timestamp (attempt, or record time for unattempted rows) DESC, id DESC. */
export const RUN_ORDER: Ordering = {
  collection: 'schedule_runs',
  keys: [
    { column: 'COALESCE(attempted_at, created_at)', field: 'effective_at', dir: 'DESC', type: 'timestamp' },
    { column: 'id', field: 'id', dir: 'DESC', type: 'text' },
  ],
};

export const timingOf = (r: ScheduleRow): Timing => (r.at !== null ? { at: Number(r.at), cron: null, zone: null } : { at: null, cron: r.cron!, zone: r.time_zone! });
const isoOrNull = (v: number | null) => (v === null ? null : iso(Number(v)));

const dto = (r: ScheduleRow): ScheduleDto => ({
  id: r.id,
  target: r.target,
  content: r.content,
  at: isoOrNull(r.at),
  cron: r.cron,
  timeZone: r.time_zone,
  missedPolicy: r.missed_policy,
  enabled: Number(r.enabled) === 1,
  nextRunAt: isoOrNull(r.next_run_at),
  createdBy: r.created_by,
  revision: r.revision,
  createdAt: iso(Number(r.created_at)),
  updatedAt: iso(Number(r.updated_at)),
});

const runDto = (x: RunRow): ScheduleRunDto => ({ id: x.id, scheduleId: x.schedule_id, scheduledFor: iso(Number(x.scheduled_for)), status: x.status, occurrences: Number(x.occurrences), messageId: x.message_id, error: x.error, by: x.actor_id, attemptedAt: iso(Number(x.effective_at)), createdAt: iso(Number(x.created_at)) });

function policyOf(v: unknown, fallback: MissedPolicy): MissedPolicy {
  if (v === undefined) return fallback;
  if (!(MISSED_POLICIES as readonly unknown[]).includes(v)) throw new AppError('validation_failed', `missedPolicy must be one of: ${MISSED_POLICIES.join(', ')}`);
  return v as MissedPolicy;
}

export class Schedules {
  constructor(private readonly deps: DomainDeps) {}

  /** Security invariant: only the creator or the owner sees a schedule (one the owner deleted: the creator only); to anyone else it does not exist. */
  private async load(sql: Sql, actor: Actor, scheduleId: unknown): Promise<ScheduleRow> {
    const row = await sql.get<ScheduleRow>(`SELECT ${SCHEDULE_COLS}, deleted_by FROM scheduled_messages WHERE id = ?`, [idOf(scheduleId, 'schedule')]);
    if (!row || (row.created_by !== actor.id && (!isOwner(actor) || row.deleted_by !== null))) throw new AppError('not_found', 'schedule not found');
    return row;
  }

  /**
   * Security invariant: only the creator changes what a schedule says, where and when, or enables it: it posts as them.
   * Timing is theirs too (a moved time makes their words say something else). Others with the right disable or delete.
   */
  private creatorOnly(r: ScheduleRow, actor: Actor, what: string): void {
    if (r.created_by !== actor.id) throw new AppError('denied', `only the schedule's creator may ${what} it (it posts as them)`, { hint: 'you may disable or delete it' });
    if (r.deleted_by) throw new AppError('conflict', 'the workspace owner deleted this schedule; it stays disabled', { hint: 'read its runs, then delete it' });
  }

  private async checkCap(sql: Sql, memberId: string): Promise<void> {
    const n = await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM scheduled_messages WHERE created_by = ? AND enabled = 1', [memberId]);
    if (Number(n?.n ?? 0) >= ENABLED_PER_MEMBER_MAX) throw new AppError('conflict', `at most ${ENABLED_PER_MEMBER_MAX} enabled schedules per member`, { hint: 'disable or delete one first' });
  }

  /** A new schedule needs room in both bounds: enabled ones (what fires) and all of the member's (what is stored). */
  private async checkRoom(sql: Sql, memberId: string): Promise<void> {
    const n = await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM scheduled_messages WHERE created_by = ?', [memberId]);
    if (Number(n?.n ?? 0) >= SCHEDULES_PER_MEMBER_MAX) throw new AppError('conflict', `at most ${SCHEDULES_PER_MEMBER_MAX} schedules per member, disabled ones included`, { hint: 'delete one first' });
    await this.checkCap(sql, memberId);
  }

  async create(actor: Actor, input: CreateInput): Promise<ScheduleDto> {
    const t = parseTarget(input.target);
    const content = checkText(input.content, SCHEDULE_CONTENT);
    const policy = policyOf(input.missedPolicy, 'skip');
    const now = this.deps.clock.now();
    const tm = checkTiming(input, now);
    return this.deps.store.tx(async (sql) => {
      // Security invariant: a schedule may only name a target its creator could post to now (rechecked at every fire).
      const target = await authorizeTarget(sql, actor, t);
      await this.checkRoom(sql, actor.id);
      const row: ScheduleRow = { id: await this.deps.ids.next(sql, 'sch'), target, content, at: tm.at, cron: tm.cron, time_zone: tm.zone, missed_policy: policy, enabled: 1, next_run_at: nextAfter(tm, now), created_by: actor.id, revision: 1, created_at: now, updated_at: now };
      await sql.run(`INSERT INTO scheduled_messages (${SCHEDULE_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [row.id, row.target, row.content, row.at, row.cron, row.time_zone, row.missed_policy, row.enabled, row.next_run_at, row.created_by, row.revision, row.created_at, row.updated_at]);
      return dto(row);
    });
  }

  async get(actor: Actor, input: { scheduleId: string }): Promise<ScheduleDto> {
    return this.deps.store.tx(async (sql) => dto(await this.load(sql, actor, input.scheduleId)));
  }

  /** The caller's own schedules (the owner: everyone's); the enabled filter (the query's text `true`/`false`) is bound into the cursor. */
  async list(actor: Actor, input: { enabled?: string; limit?: number; cursor?: string }): Promise<SchedulePage> {
    if (input.enabled !== undefined && input.enabled !== 'true' && input.enabled !== 'false') throw new AppError('validation_failed', 'enabled must be true or false');
    normalizeLimit(input.limit);
    const where = ['1 = 1'];
    const params: (string | number)[] = [];
    if (!isOwner(actor)) (where.push('created_by = ?'), params.push(actor.id));
    else (where.push('(deleted_by IS NULL OR created_by = ?)'), params.push(actor.id));
    if (input.enabled !== undefined) (where.push('enabled = ?'), params.push(input.enabled === 'true' ? 1 : 0));
    const filter = { viewer: isOwner(actor) ? null : actor.id, enabled: input.enabled ?? null };
    return this.deps.store.tx((sql) => listPage(sql, this.deps.cursors, 'schedules', { ordering: SCHEDULE_ORDER, columns: SCHEDULE_COLS, from: 'scheduled_messages', where: where.join(' AND '), params, filter, limit: input.limit, cursor: input.cursor }, (rows: ScheduleRow[]) => rows.map(dto)));
  }

  /** Changes content, target or timing; new timing recomputes nextRunAt from now (at and cron replace each other). */
  async update(actor: Actor, { scheduleId, ...input }: UpdateInput & { scheduleId: string }): Promise<ScheduleDto> {
    const t = input.target === undefined ? undefined : parseTarget(input.target);
    const content = input.content === undefined ? undefined : checkText(input.content, SCHEDULE_CONTENT);
    if (Object.keys(input).length === 0) throw new AppError('validation_failed', 'give at least one field to change');
    return this.deps.store.tx(async (sql) => {
      const r = await this.load(sql, actor, scheduleId);
      this.creatorOnly(r, actor, 'change');
      const now = Math.max(this.deps.clock.now(), Number(r.updated_at));
      const policy = policyOf(input.missedPolicy, r.missed_policy);
      let tm = timingOf(r);
      let next = r.next_run_at === null ? null : Number(r.next_run_at);
      if (input.at !== undefined || input.cron !== undefined || input.timeZone !== undefined) {
        // A new at or cron replaces the old timing; a cron keeps its zone unless one is given; a lone timeZone re-zones a cron.
        const keepZone = input.cron !== undefined && r.cron !== null ? (r.time_zone ?? undefined) : undefined;
        const merged = input.at !== undefined || input.cron !== undefined ? { at: input.at, cron: input.cron, timeZone: input.timeZone ?? keepZone } : { at: r.at === null ? undefined : iso(Number(r.at)), cron: r.cron ?? undefined, timeZone: input.timeZone };
        tm = checkTiming(merged, now);
        next = Number(r.enabled) === 1 ? nextAfter(tm, now) : null;
      }
      const target = t === undefined ? r.target : await authorizeTarget(sql, actor, t);
      const changed = await sql.run('UPDATE scheduled_messages SET target = ?, content = ?, at = ?, cron = ?, time_zone = ?, missed_policy = ?, next_run_at = ?, revision = ?, updated_at = ? WHERE id = ? AND revision = ?', [target, content ?? r.content, tm.at, tm.cron, tm.zone, policy, next, r.revision + 1, now, r.id, r.revision]);
      if (changed !== 1) throw new AppError('conflict', 'the schedule changed concurrently', { hint: 'get the schedule again' });
      return dto(await this.load(sql, actor, r.id));
    });
  }

  /**
   * Idempotent: enabling an enabled (or disabling a disabled) schedule returns it unchanged. Enabling recomputes the
   * next window from now (windows while disabled are not missed runs); a one-shot whose instant has passed conflicts.
   */
  async setEnabled(actor: Actor, scheduleId: string, enabled: boolean): Promise<ScheduleDto> {
    return this.deps.store.tx(async (sql) => {
      const r = await this.load(sql, actor, scheduleId);
      if (enabled) this.creatorOnly(r, actor, 'enable');
      if ((Number(r.enabled) === 1) === enabled) return dto(r);
      const now = Math.max(this.deps.clock.now(), Number(r.updated_at));
      let next: number | null = null;
      if (enabled) {
        await this.checkCap(sql, r.created_by);
        next = nextAfter(timingOf(r), now);
        if (next === null) throw new AppError('conflict', 'this one-shot schedule is past its time', { hint: 'update at to a future instant' });
      }
      const changed = await sql.run('UPDATE scheduled_messages SET enabled = ?, next_run_at = ?, revision = ?, updated_at = ? WHERE id = ? AND revision = ?', [enabled ? 1 : 0, next, r.revision + 1, now, r.id, r.revision]);
      if (changed !== 1) throw new AppError('conflict', 'the schedule changed concurrently', { hint: 'get the schedule again' });
      // Security invariant: a schedule stopped by someone other than its creator says so on its runs, naming who.
      if (r.created_by !== actor.id) await logStop(sql, this.deps.ids, r.id, 'disabled', actor.id, 'disabled by the workspace owner', now);
      return dto(await this.load(sql, actor, r.id));
    });
  }

  /**
   * The creator's delete removes the schedule and its runs; it never fires again. Another's (the owner's) disables it and
   * hides it from all but its creator, with a run entry naming who deleted it; the creator's own delete then removes it.
   */
  async delete(actor: Actor, input: { scheduleId: string }): Promise<{ scheduleId: string; deleted: true }> {
    return this.deps.store.tx(async (sql) => {
      const r = await this.load(sql, actor, input.scheduleId);
      if (r.created_by !== actor.id) {
        const now = Math.max(this.deps.clock.now(), Number(r.updated_at));
        const changed = await sql.run('UPDATE scheduled_messages SET enabled = 0, next_run_at = NULL, deleted_by = ?, deleted_at = ?, revision = ?, updated_at = ? WHERE id = ? AND revision = ?', [actor.id, now, r.revision + 1, now, r.id, r.revision]);
        if (changed !== 1) throw new AppError('conflict', 'the schedule changed concurrently', { hint: 'get the schedule again' });
        await logStop(sql, this.deps.ids, r.id, 'deleted', actor.id, 'deleted by the workspace owner', now);
        return { scheduleId: r.id, deleted: true };
      }
      await sql.run('DELETE FROM schedule_runs WHERE schedule_id = ?', [r.id]);
      await sql.run('DELETE FROM scheduled_messages WHERE id = ?', [r.id]);
      return { scheduleId: r.id, deleted: true };
    });
  }

  async runs(actor: Actor, input: { scheduleId: string; limit?: number; cursor?: string }): Promise<RunPage> {
    normalizeLimit(input.limit);
    return this.deps.store.tx(async (sql) => {
      const r = await this.load(sql, actor, input.scheduleId);
      const q = { ordering: RUN_ORDER, columns: RUN_COLS, from: 'schedule_runs', where: 'schedule_id = ?', params: [r.id], filter: { scheduleId: r.id }, limit: input.limit, cursor: input.cursor };
      return listPage(sql, this.deps.cursors, 'runs', q, (rows: RunRow[]) => rows.map(runDto));
    });
  }
}
