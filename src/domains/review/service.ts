// Owns reviews on task:<id> and thread:<channelId>/<rootId> targets: add, get, keyset list, resolve and reopen.
import { AppError } from '../../shared/errors.js';
import { ID_RE, iso, type Actor, type DomainDeps } from '../../server/context.js';
import { listPage, nextMoved, normalizeLimit, type Ordering } from '../../server/pagination.js';
import type { Sql } from '../../server/store/types.js';
import { authorizeTarget } from '../channel/authorize.js';
import { parseTarget } from '../../shared/target.js';
import { memberNames, nameOf, type MemberName } from '../member/names.js';
import { checkText, clipText } from '../../shared/bounds.js';
import { REVIEW_BODY, REVIEW_STATUSES, REVIEW_TARGETS, REVIEW_VERDICTS, type ReviewDto, type ReviewPage, type ReviewStatus, type ReviewVerdict } from './contract.js';

interface ReviewRow {
  id: string;
  target: string;
  author_id: string;
  verdict: ReviewVerdict;
  body: string;
  status: ReviewStatus;
  revision: number;
  created_at: number;
  updated_at: number;
}

const VERDICTS: readonly string[] = REVIEW_VERDICTS;
const STATUSES: readonly string[] = REVIEW_STATUSES;
const COLS = 'id, target, author_id, verdict, body, status, revision, created_at, updated_at';

function reviewDto(r: ReviewRow, author: MemberName): ReviewDto {
  return {
    id: r.id,
    target: r.target,
    authorId: r.author_id,
    author,
    verdict: r.verdict,
    body: clipText(r.body, REVIEW_BODY.bytes), // rows over the bound (older versions) read back clipped with a marker
    status: r.status,
    revision: r.revision,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/** Spec: updatedAt DESC, id DESC within the resolved thread. resolve/reopen move a review, so cursors carry moved_seq. */
export const REVIEW_ORDER: Ordering = {
  collection: 'reviews',
  keys: [
    { column: 'updated_at', field: 'updated_at', dir: 'DESC', type: 'timestamp' },
    { column: 'id', field: 'id', dir: 'DESC', type: 'text' },
  ],
  moved: 'moved_seq',
};

/** The page query of one canonical target and optional status (exported for the query-plan test). */
export function reviewPageQuery(filter: { target: string; status: string | null }) {
  return {
    ordering: REVIEW_ORDER,
    columns: COLS,
    from: 'reviews',
    where: filter.status ? 'target = ? AND status = ?' : 'target = ?',
    params: filter.status ? [filter.target, filter.status] : [filter.target],
    filter,
  };
}

export class Reviews {
  constructor(private readonly deps: DomainDeps) {}

  /** A review the actor may read: its target must authorize the actor; otherwise not_found, like a missing review. */
  private async load(sql: Sql, actor: Actor, reviewId: unknown): Promise<ReviewRow> {
    const row = typeof reviewId === 'string' && ID_RE.test(reviewId) ? await sql.get<ReviewRow>(`SELECT ${COLS} FROM reviews WHERE id = ?`, [reviewId]) : undefined;
    if (!row) throw new AppError('not_found', 'review not found');
    try {
      await authorizeTarget(sql, actor, parseTarget(row.target));
    } catch {
      throw new AppError('not_found', 'review not found');
    }
    return row;
  }

  async add(actor: Actor, input: { target: string; verdict: ReviewVerdict; body: string }): Promise<ReviewDto> {
    const t = parseTarget(input.target, REVIEW_TARGETS);
    if (!VERDICTS.includes(input.verdict)) throw new AppError('validation_failed', `verdict must be one of: ${VERDICTS.join(', ')}`);
    const body = checkText(input.body, REVIEW_BODY);
    return this.deps.store.tx(async (sql) => {
      const target = await authorizeTarget(sql, actor, t);
      const now = this.deps.clock.now();
      const row: ReviewRow = { id: await this.deps.ids.next(sql, 'rev'), target, author_id: actor.id, verdict: input.verdict, body, status: 'open', revision: 1, created_at: now, updated_at: now };
      await sql.run(`INSERT INTO reviews (${COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
        row.id,
        row.target,
        row.author_id,
        row.verdict,
        row.body,
        row.status,
        row.revision,
        row.created_at,
        row.updated_at,
      ]);
      return reviewDto(row, { name: actor.name, kind: actor.kind });
    });
  }

  private async dto(sql: Sql, r: ReviewRow): Promise<ReviewDto> {
    return reviewDto(r, nameOf(await memberNames(sql, [r.author_id]), r.author_id));
  }

  async get(actor: Actor, reviewId: string): Promise<ReviewDto> {
    return this.deps.store.tx(async (sql) => this.dto(sql, await this.load(sql, actor, reviewId)));
  }

  /** updatedAt DESC, id DESC within the resolved target; the target and status filter are bound into the cursor. */
  async list(actor: Actor, input: { target: string; status?: ReviewStatus; limit?: number; cursor?: string }): Promise<ReviewPage> {
    const t = parseTarget(input.target, REVIEW_TARGETS);
    if (input.status !== undefined && !STATUSES.includes(input.status)) throw new AppError('validation_failed', `status must be one of: ${STATUSES.join(', ')}`);
    normalizeLimit(input.limit);
    return this.deps.store.tx(async (sql) => {
      const target = await authorizeTarget(sql, actor, t);
      return listPage(sql, this.deps.cursors, 'reviews', { ...reviewPageQuery({ target, status: input.status ?? null }), limit: input.limit, cursor: input.cursor }, async (rows: ReviewRow[]) => {
        const names = await memberNames(sql, rows.map((r) => r.author_id));
        return rows.map((r) => reviewDto(r, nameOf(names, r.author_id)));
      });
    });
  }

  private async move(actor: Actor, reviewId: string, from: ReviewStatus, to: ReviewStatus, verb: string): Promise<ReviewDto> {
    return this.deps.store.tx(async (sql) => {
      const r = await this.load(sql, actor, reviewId);
      if (r.status !== from) throw new AppError('conflict', `cannot ${verb} a review that is ${r.status}; allowed from ${r.status}: ${r.status === 'open' ? 'resolve' : 'reopen'}`);
      const next: ReviewRow = { ...r, status: to, revision: r.revision + 1, updated_at: Math.max(this.deps.clock.now(), r.updated_at) };
      // Conditional on the revision read, so a concurrent writer on a shared database is never overwritten silently.
      const moved = await nextMoved(sql, 'reviews');
      const changed = await sql.run('UPDATE reviews SET status = ?, revision = ?, updated_at = ?, moved_seq = ? WHERE id = ? AND revision = ?', [next.status, next.revision, next.updated_at, moved, next.id, r.revision]);
      if (changed !== 1) throw new AppError('conflict', 'the review changed concurrently', { hint: 'get the review again' });
      return this.dto(sql, next);
    });
  }

  resolve(actor: Actor, reviewId: string): Promise<ReviewDto> {
    return this.move(actor, reviewId, 'open', 'resolved', 'resolve');
  }

  reopen(actor: Actor, reviewId: string): Promise<ReviewDto> {
    return this.move(actor, reviewId, 'resolved', 'open', 'reopen');
  }
}
