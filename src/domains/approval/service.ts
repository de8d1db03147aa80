// Owns approvals on the server: requests on explicit subjects, keyset list (createdAt DESC, id DESC; status and requester
// filters), Human-only idempotent decisions that post to the request's notify target, and cancel by the requester.
import { AppError } from '../../shared/errors.js';
import { idOf, iso, type Actor, type DomainDeps } from '../../server/context.js';
import { listPage, normalizeLimit, type Ordering } from '../../server/pagination.js';
import type { Sql } from '../../server/store/types.js';
import { authorizeTarget, readableTargetSql, readsTarget } from '../channel/authorize.js';
import { parseTarget } from '../../shared/target.js';
import { Messages } from '../message/service.js';
import { mayDecideApproval } from '../workflow/deciders.js';
import { actorNames, nameOf, withNames, type MemberName } from '../member/names.js';
import { APPROVAL_STATUSES, boundedField, canonicalSubject, NOTE_MAX, PENDING_PER_REQUESTER_MAX, REASON_MAX, SUBJECT_TABLES, type ApprovalDto, type SubjectKind, type ApprovalPage, type ApprovalStatus } from './contract.js';

interface ApprovalRow {
  id: string;
  subject: string;
  reason: string;
  notify: string;
  status: ApprovalStatus;
  requested_by: string;
  decided_by: string | null;
  note: string | null;
  revision: number;
  created_at: number;
  updated_at: number;
}

const COLS = 'id, subject, reason, notify, status, requested_by, decided_by, note, revision, created_at, updated_at';

/** Newest first; createdAt never changes, so the order needs no moved check. */
export const APPROVAL_ORDER: Ordering = {
  collection: 'approvals',
  keys: [
    { column: 'created_at', field: 'created_at', dir: 'DESC', type: 'timestamp' },
    { column: 'id', field: 'id', dir: 'DESC', type: 'text' },
  ],
};

const dto = (r: ApprovalRow, names: Map<string, MemberName>): ApprovalDto => ({
  id: r.id,
  subject: r.subject,
  reason: r.reason,
  notify: r.notify,
  status: r.status,
  requestedBy: r.requested_by,
  decidedBy: r.decided_by,
  requester: nameOf(names, r.requested_by),
  decider: r.decided_by === null ? null : nameOf(names, r.decided_by),
  note: r.note,
  revision: r.revision,
  createdAt: iso(Number(r.created_at)),
  updatedAt: iso(Number(r.updated_at)),
});

/** The DTOs of `rows` with their members' names: one batched lookup for the whole set. */
const dtos = (sql: Pick<Sql, 'all'>, rows: ApprovalRow[]): Promise<ApprovalDto[]> => withNames(sql, rows, (r) => [r.requested_by, r.decided_by], dto);
const one = async (sql: Sql, r: ApprovalRow): Promise<ApprovalDto> => (await dtos(sql, [r]))[0]!;

export class Approvals {
  constructor(private readonly deps: DomainDeps) {}

  /**
   * Security invariant: an approval is read, decided or cancelled only by a member who may read its notify target (where
   * its decision is posted); any other member gets the same not_found as for a missing approval.
   */
  private async load(sql: Sql, actor: Actor, approvalId: unknown): Promise<ApprovalRow> {
    const row = await this.read(sql, idOf(approvalId, 'approval'));
    if (!row || !(await readsTarget(sql, actor, row.notify))) throw new AppError('not_found', 'approval not found');
    return row;
  }

  /** The row as stored now (after this transaction's own change: the actor was authorized by load). */
  private read(sql: Sql, id: string): Promise<ApprovalRow | undefined> {
    return sql.get<ApprovalRow>(`SELECT ${COLS} FROM approvals WHERE id = ?`, [id]);
  }

  /**
   * The subject exists and the requester may name it. Security invariant: a workflow step is named only by a member
   * who may read its run's target (as every workflow read requires); any other gets the answer a missing step gets,
   * so a run's existence does not leak. Tasks, projects and teams are read by every member.
   */
  private async checkSubject(sql: Sql, actor: Actor, kind: SubjectKind, id: string, subject: string): Promise<void> {
    const missing = () => new AppError('not_found', `subject ${subject} not found`);
    if (kind !== 'step') {
      if (!(await sql.get(`SELECT 1 AS x FROM ${SUBJECT_TABLES[kind]} WHERE id = ?`, [id]))) throw missing();
      return;
    }
    const run = await sql.get<{ target: string }>('SELECT r.target AS target FROM workflow_steps s JOIN workflow_runs r ON r.id = s.run_id WHERE s.id = ?', [id]);
    if (!run || !(await readsTarget(sql, actor, run.target))) throw missing();
  }

  /** `fromRun`: a workflow run's approval step (bounded by the starter's live runs instead, never refused for the cap). */
  async request(actor: Actor, input: { subject: string; reason: string; notify?: string }, opts: { fromRun?: boolean } = {}): Promise<ApprovalDto> {
    // Either form names one subject: a bare id's prefix says its kind; it is stored (and compared) as `kind:<id>`.
    const s = canonicalSubject(input.subject);
    if (!s) throw new AppError('validation_failed', 'subject must be a task, project, team or step id (tsk…, prj…, team…, wfs…) or exact task:<id>, project:<id>, team:<id>, step:<id>');
    const reason = boundedField(input.reason, 'reason', 1, REASON_MAX);
    const { kind, id, subject } = s;
    if (input.notify === undefined && kind !== 'task') throw new AppError('validation_failed', 'give notify (an exact message target) for a non-task subject');
    const target = parseTarget(input.notify ?? subject);
    return this.deps.store.tx(async (sql) => {
      await this.checkSubject(sql, actor, kind, id, subject);
      // Security invariant: the requester may only name a notify target they could post to themselves.
      const notify = await authorizeTarget(sql, actor, target);
      if (!opts.fromRun) {
        const open = await sql.get<{ n: number }>("SELECT COUNT(*) AS n FROM approvals WHERE requested_by = ? AND status = 'pending'", [actor.id]);
        if (Number(open?.n ?? 0) >= PENDING_PER_REQUESTER_MAX) throw new AppError('conflict', `at most ${PENDING_PER_REQUESTER_MAX} pending approval requests per member`, { hint: 'cancel one or wait for a decision' });
      }
      const now = this.deps.clock.now();
      const row: ApprovalRow = { id: await this.deps.ids.next(sql, 'apr'), subject, reason, notify, status: 'pending', requested_by: actor.id, decided_by: null, note: null, revision: 1, created_at: now, updated_at: now };
      await sql.run(`INSERT INTO approvals (${COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [row.id, row.subject, row.reason, row.notify, row.status, row.requested_by, row.decided_by, row.note, row.revision, row.created_at, row.updated_at]);
      return dto(row, actorNames(actor));
    });
  }

  async get(actor: Actor, approvalId: string): Promise<ApprovalDto> {
    return this.deps.store.tx(async (sql) => one(sql, await this.load(sql, actor, approvalId)));
  }

  /** Lists what the actor may read (readable notify target, the rule of load); both filters are bound into the cursor. */
  async list(actor: Actor, input: { status?: string; requesterId?: string; limit?: number; cursor?: string }): Promise<ApprovalPage> {
    if (input.status !== undefined && !(APPROVAL_STATUSES as readonly string[]).includes(input.status)) throw new AppError('validation_failed', `status must be one of: ${APPROVAL_STATUSES.join(', ')}`);
    if (input.requesterId !== undefined && (typeof input.requesterId !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/.test(input.requesterId))) throw new AppError('validation_failed', 'requesterId must be a member id');
    normalizeLimit(input.limit);
    const readable = readableTargetSql(actor, 'notify');
    const where = [readable.sql];
    const params: string[] = [...readable.params];
    if (input.status) (where.push('status = ?'), params.push(input.status));
    if (input.requesterId) (where.push('requested_by = ?'), params.push(input.requesterId));
    const q = { ordering: APPROVAL_ORDER, columns: COLS, from: 'approvals', where: where.join(' AND '), params, filter: { status: input.status ?? null, requesterId: input.requesterId ?? null }, limit: input.limit, cursor: input.cursor };
    return this.deps.store.tx((sql) => listPage(sql, this.deps.cursors, 'approvals', q, (rows: ApprovalRow[]) => dtos(sql, rows)));
  }

  /**
   * Security invariant: only a Human decides; an agent is denied before anything is read or changed.
   * Idempotent: repeating the decision already made returns the approval unchanged and posts nothing; the other decision
   * on a decided (or cancelled) request is a conflict. The pending → decided step is claimed in the database.
   */
  async decide(actor: Actor, approvalId: string, decision: 'approved' | 'rejected', note?: string): Promise<ApprovalDto> {
    if (actor.kind !== 'human') throw new AppError('denied', 'only a Human may approve or reject');
    const n = note === undefined ? null : boundedField(note, 'note', 0, NOTE_MAX);
    return this.deps.store.tx(async (sql) => {
      const r = await this.load(sql, actor, approvalId);
      // Security invariant: a workflow run's approval step is decided only by the deciders it names (workflow/deciders.ts).
      if (!(await mayDecideApproval(sql, actor, r.id))) throw new AppError('denied', "only the run's starter, an owner/admin or a decider the step names may decide this approval");
      if (r.status === decision) return one(sql, r);
      if (r.status !== 'pending') throw new AppError('conflict', `approval is already ${r.status}`);
      const now = Math.max(this.deps.clock.now(), Number(r.updated_at));
      const claimed = await sql.run('UPDATE approvals SET status = ?, decided_by = ?, note = ?, revision = ?, updated_at = ? WHERE id = ? AND status = ?', [decision, actor.id, n, r.revision + 1, now, r.id, 'pending']);
      if (claimed !== 1) throw new AppError('conflict', 'the approval changed concurrently', { hint: 'get the approval again' });
      const content = `Approval ${r.id} for ${r.subject} was ${decision} by ${actor.name}${n ? `: ${n}` : '.'}`;
      await new Messages(this.deps).insert(sql, actor, r.notify, content, null, []);
      return one(sql, (await this.read(sql, r.id))!);
    });
  }

  /** Security invariant: only the requester withdraws a request. Idempotent on a cancelled request; a decided one conflicts. */
  async cancel(actor: Actor, approvalId: string): Promise<ApprovalDto> {
    return this.deps.store.tx(async (sql) => {
      const r = await this.load(sql, actor, approvalId);
      if (r.requested_by !== actor.id) throw new AppError('denied', 'only the requester may cancel an approval request');
      if (r.status === 'cancelled') return one(sql, r);
      if (r.status !== 'pending') throw new AppError('conflict', `approval is already ${r.status}`);
      const now = Math.max(this.deps.clock.now(), Number(r.updated_at));
      if ((await sql.run("UPDATE approvals SET status = 'cancelled', revision = ?, updated_at = ? WHERE id = ? AND status = 'pending'", [r.revision + 1, now, r.id])) !== 1) throw new AppError('conflict', 'the approval changed concurrently');
      return one(sql, (await this.read(sql, r.id))!);
    });
  }
}
