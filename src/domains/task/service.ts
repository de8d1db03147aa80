// Owns tasks: create/get/list (keyset), revision-checked update, assign, validated status transitions, and comments.
import { AppError } from '../../shared/errors.js';
import { ID_RE, iso, type Actor, type DomainDeps } from '../../server/context.js';
import { listPage, normalizeLimit, type Ordering } from '../../server/pagination.js';
import type { Sql } from '../../server/store/types.js';
import { memberById } from '../member/service.js';
import { actorNames, nameOf, withNames, type MemberName } from '../member/names.js';
import { MEMBER_NAME } from '../member/contract.js';
import { projectById } from '../project/service.js';
import { Messages } from '../message/service.js';
import { checkOptionalText, checkText, clipText } from '../../shared/bounds.js';
import { OPEN_TASKS_PER_MEMBER_MAX, TASK_BOUNDS as B, TASK_STATUSES, type TaskCommentDto, type TaskDto, type TaskPage, type TaskStatus, type TaskTransition } from './contract.js';

interface TaskRow {
  id: string;
  title: string;
  description: string;
  status: TaskStatus;
  assignee_id: string | null;
  project_id: string | null;
  created_by: string;
  blocked_reason: string | null;
  revision: number;
  created_at: number;
  updated_at: number;
}

/** The only legal transitions: from-statuses and the resulting status. */
export const TRANSITIONS: Readonly<Record<TaskTransition, { from: readonly TaskStatus[]; to: TaskStatus }>> = {
  start: { from: ['open', 'blocked'], to: 'in_progress' },
  block: { from: ['open', 'in_progress'], to: 'blocked' },
  complete: { from: ['in_progress'], to: 'done' },
  reopen: { from: ['done', 'canceled'], to: 'open' },
  cancel: { from: ['open', 'in_progress', 'blocked'], to: 'canceled' },
};

export function allowedTransitions(status: TaskStatus): TaskTransition[] {
  return (Object.keys(TRANSITIONS) as TaskTransition[]).filter((t) => TRANSITIONS[t].from.includes(status));
}

/** The statuses of a task still open (counted by OPEN_TASKS_PER_MEMBER_MAX). */
const OPEN: readonly TaskStatus[] = ['open', 'in_progress', 'blocked'];
const COLS = 'id, title, description, status, assignee_id, project_id, created_by, blocked_reason, revision, created_at, updated_at';

/**
 * Rows stored before the byte bounds (or over them) read back clipped with a marker, so every task fits its budget.
 * `names` holds the creator's and the assignee's names (one batched lookup per page, see rowsToDtos).
 */
function taskDto(r: TaskRow, names: Map<string, MemberName>): TaskDto {
  return {
    id: r.id,
    title: clipText(r.title, B.title.bytes),
    description: clipText(r.description, B.description.bytes),
    status: r.status,
    assigneeId: r.assignee_id,
    projectId: r.project_id,
    createdBy: r.created_by,
    creator: nameOf(names, r.created_by),
    assignee: r.assignee_id === null ? null : nameOf(names, r.assignee_id),
    blockedReason: r.blocked_reason === null ? null : clipText(r.blocked_reason, B.reason.bytes),
    revision: r.revision,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/** The DTOs of `rows` with their members' names: one batched query for the whole set, none when `known` names everyone. */
const rowsToDtos = (sql: Pick<Sql, 'all'>, rows: TaskRow[], known?: Map<string, MemberName>): Promise<TaskDto[]> => withNames(sql, rows, (r) => [r.created_by, r.assignee_id], taskDto, known);

/** Newest first; createdAt never changes, so tasks never move in this order. */
export const TASK_ORDER: Ordering = {
  collection: 'tasks',
  keys: [
    { column: 'created_at', field: 'created_at', dir: 'DESC', type: 'timestamp' },
    { column: 'id', field: 'id', dir: 'DESC', type: 'text' },
  ],
};

/** The page query for the optional status/assignee filters (exported for the query-plan test). */
export function taskPageQuery(filter: { status: string | null; assigneeId: string | null; projectId?: string | null }) {
  const where: string[] = ['1 = 1'];
  const params: string[] = [];
  if (filter.status) (where.push('status = ?'), params.push(filter.status));
  if (filter.assigneeId) (where.push('assignee_id = ?'), params.push(filter.assigneeId));
  if (filter.projectId) (where.push('project_id = ?'), params.push(filter.projectId));
  return { ordering: TASK_ORDER, columns: COLS, from: 'tasks', where: where.join(' AND '), params, filter };
}

export class Tasks {
  constructor(private readonly deps: DomainDeps) {}

  private async load(sql: Sql, taskId: unknown): Promise<TaskRow> {
    const row = typeof taskId === 'string' && ID_RE.test(taskId) ? await sql.get<TaskRow>(`SELECT ${COLS} FROM tasks WHERE id = ?`, [taskId]) : undefined;
    if (!row) throw new AppError('not_found', 'task not found');
    return row;
  }

  /** The assignee's id and name (null: unassigned); a removed or unknown member is validation_failed. */
  private async assignee(sql: Sql, id: string | null | undefined): Promise<{ id: string; name: MemberName } | null> {
    if (id === undefined || id === null) return null;
    const m = typeof id === 'string' ? await memberById(sql, id) : undefined;
    if (!m) throw new AppError('validation_failed', 'assigneeId is not a workspace member');
    return { id: m.id, name: { name: clipText(m.name, MEMBER_NAME.bytes), kind: m.kind } };
  }

  /** A task may be filed only under an existing, active project. */
  private async project(sql: Sql, id: string | null | undefined): Promise<string | null> {
    if (id === undefined || id === null) return null;
    const p = typeof id === 'string' && ID_RE.test(id) ? await projectById(sql, id) : undefined;
    if (!p) throw new AppError('validation_failed', 'projectId is not a project of this workspace');
    if (p.status !== 'active') throw new AppError('conflict', 'the project is archived and takes no new tasks', { hint: 'unarchive the project first' });
    return id;
  }

  /**
   * Every mutation bumps revision and updatedAt (never moving updatedAt backwards). The write is conditional on the
   * revision that was read, so a concurrent writer (another server process on the same database) can never be
   * overwritten silently: the loser gets conflict.
   */
  private async save(sql: Sql, r: TaskRow, known?: Map<string, MemberName>): Promise<TaskDto> {
    const next: TaskRow = { ...r, revision: r.revision + 1, updated_at: Math.max(this.deps.clock.now(), r.updated_at) };
    const changed = await sql.run(
      'UPDATE tasks SET title = ?, description = ?, status = ?, assignee_id = ?, project_id = ?, blocked_reason = ?, revision = ?, updated_at = ? WHERE id = ? AND revision = ?',
      [next.title, next.description, next.status, next.assignee_id, next.project_id, next.blocked_reason, next.revision, next.updated_at, next.id, r.revision],
    );
    if (changed !== 1) throw new AppError('conflict', 'the task changed concurrently', { hint: 'get the task again and reapply your change' });
    return (await rowsToDtos(sql, [next], known))[0]!;
  }

  async create(actor: Actor, input: { title: string; description?: string; assigneeId?: string; projectId?: string }): Promise<TaskDto> {
    const title = checkText(input.title, B.title);
    const description = checkOptionalText(input.description, B.description) ?? '';
    const write = async (sql: Sql) => {
      const now = this.deps.clock.now();
      const assignee = await this.assignee(sql, input.assigneeId);
      const row: TaskRow = {
        id: await this.deps.ids.next(sql, 'tsk'),
        title,
        description,
        status: 'open',
        assignee_id: assignee?.id ?? null,
        project_id: await this.project(sql, input.projectId),
        created_by: actor.id,
        blocked_reason: null,
        revision: 1,
        created_at: now,
        updated_at: now,
      };
      // Bound: a member has at most OPEN_TASKS_PER_MEMBER_MAX open tasks they created (checked in the insert itself).
      const inserted = await sql.run(`INSERT INTO tasks (${COLS}) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM tasks WHERE created_by = ? AND status IN (${OPEN.map(() => '?').join(', ')})) < ?`, [
        row.id,
        row.title,
        row.description,
        row.status,
        row.assignee_id,
        row.project_id,
        row.created_by,
        row.blocked_reason,
        row.revision,
        row.created_at,
        row.updated_at,
        actor.id,
        ...OPEN,
        OPEN_TASKS_PER_MEMBER_MAX,
      ]);
      if (inserted !== 1) throw new AppError('conflict', `at most ${OPEN_TASKS_PER_MEMBER_MAX} open tasks created per member`, { hint: 'complete or cancel one you created first' });
      // The creator is the actor and the assignee was just read: no names query.
      const names = actorNames(actor);
      if (assignee) names.set(assignee.id, assignee.name);
      return taskDto(row, names);
    };
    // With no assignee or project to check, a create is one conditional INSERT of a fresh id: atomic by itself, so it runs
    // as one autocommit statement (on PostgreSQL one round trip instead of BEGIN, INSERT, COMMIT). Concurrent creates of
    // one member outside a transaction may pass the bound together by at most their number in flight.
    if ((input.assigneeId ?? null) === null && (input.projectId ?? null) === null) return write(this.deps.store);
    return this.deps.store.tx(write);
  }

  async get(_actor: Actor, taskId: string): Promise<TaskDto> {
    return this.deps.store.tx(async (sql) => (await rowsToDtos(sql, [await this.load(sql, taskId)]))[0]!);
  }

  /** createdAt DESC, id DESC; filters status and assigneeId are bound into the cursor. */
  async list(_actor: Actor, input: { status?: TaskStatus; assigneeId?: string; projectId?: string; limit?: number; cursor?: string }): Promise<TaskPage> {
    if (input.status !== undefined && !(TASK_STATUSES as readonly string[]).includes(input.status)) throw new AppError('validation_failed', `status must be one of: ${TASK_STATUSES.join(', ')}`);
    if (input.assigneeId !== undefined && (typeof input.assigneeId !== 'string' || !ID_RE.test(input.assigneeId))) throw new AppError('validation_failed', 'assigneeId must be a member id');
    if (input.projectId !== undefined && (typeof input.projectId !== 'string' || !ID_RE.test(input.projectId))) throw new AppError('validation_failed', 'projectId must be a project id');
    normalizeLimit(input.limit);
    const filter = { status: input.status ?? null, assigneeId: input.assigneeId ?? null, ...(input.projectId ? { projectId: input.projectId } : {}) };
    return listPage(this.deps.store, this.deps.cursors, 'tasks', { ...taskPageQuery(filter), limit: input.limit, cursor: input.cursor }, (rows: TaskRow[]) => rowsToDtos(this.deps.store, rows));
  }

  async update(_actor: Actor, input: { taskId: string; expectedRevision: number; title?: string; description?: string; projectId?: string | null }): Promise<TaskDto> {
    if (typeof input.expectedRevision !== 'number' || !Number.isSafeInteger(input.expectedRevision) || input.expectedRevision < 1) {
      throw new AppError('validation_failed', 'expectedRevision must be a positive integer');
    }
    if (input.title === undefined && input.description === undefined && input.projectId === undefined) throw new AppError('validation_failed', 'give title, description and/or projectId to change');
    const title = checkOptionalText(input.title, B.title);
    const description = checkOptionalText(input.description, B.description);
    return this.deps.store.tx(async (sql) => {
      const r = await this.load(sql, input.taskId);
      if (r.revision !== input.expectedRevision) {
        throw new AppError('conflict', `task is at revision ${r.revision}, not ${input.expectedRevision}`, { hint: 'get the task again and reapply your change' });
      }
      const project_id = input.projectId === undefined ? r.project_id : await this.project(sql, input.projectId);
      return this.save(sql, { ...r, title: title ?? r.title, description: description ?? r.description, project_id });
    });
  }

  async assign(_actor: Actor, input: { taskId: string; assigneeId: string | null }): Promise<TaskDto> {
    return this.deps.store.tx(async (sql) => {
      const r = await this.load(sql, input.taskId);
      const a = await this.assignee(sql, input.assigneeId);
      return this.save(sql, { ...r, assignee_id: a?.id ?? null }, a ? new Map([[a.id, a.name]]) : undefined);
    });
  }

  async transition(_actor: Actor, input: { taskId: string; transition: TaskTransition; reason?: string }): Promise<TaskDto> {
    const rule = Object.prototype.hasOwnProperty.call(TRANSITIONS, input.transition) ? TRANSITIONS[input.transition] : undefined;
    if (!rule) throw new AppError('validation_failed', `transition must be one of: ${Object.keys(TRANSITIONS).join(', ')}`);
    const reason = checkOptionalText(input.reason, B.reason);
    if (input.transition === 'block' && reason === undefined) throw new AppError('validation_failed', 'block requires a reason');
    return this.deps.store.tx(async (sql) => {
      const r = await this.load(sql, input.taskId);
      if (!rule.from.includes(r.status)) {
        const allowed = allowedTransitions(r.status);
        throw new AppError('conflict', `cannot ${input.transition} a task that is ${r.status}; allowed from ${r.status}: ${allowed.join(', ') || 'none'}`);
      }
      return this.save(sql, { ...r, status: rule.to, blocked_reason: rule.to === 'blocked' ? reason! : null });
    });
  }

  /** A comment is a message in the task's discussion (target task:<id>); it counts as task activity (revision bump). */
  async comment(actor: Actor, input: { taskId: string; body: string }): Promise<TaskCommentDto> {
    const body = checkText(input.body, B.comment);
    return this.deps.store.tx(async (sql) => {
      const r = await this.load(sql, input.taskId);
      const msg = await new Messages(this.deps).insert(sql, actor, `task:${r.id}`, body, null, []);
      await this.save(sql, r);
      return { id: msg.id, taskId: r.id, authorId: actor.id, body, createdAt: msg.createdAt };
    });
  }
}
