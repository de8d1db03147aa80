// Owns the console's boards: pages of tasks with their reviews, approvals waiting for the person (and deciding them), schedules with runs, workflow runs with steps.
import type { ServerApi } from '../server-client/api.js';
import { ID_RE } from '../shared/ids.js';
import { AppError } from '../shared/errors.js';

/** Items per board page; the page continues with the server's keyset cursor ("Load more"). */
export const BOARD_PAGE = 20;
/** Nested items read for every item shown (a list cut there says so: `more`); a workflow has at most 16 steps. */
export const NESTED = { reviews: 10, runs: 5, steps: 16 } as const;
/** Longest text of one field sent to the page (review bodies, schedule contents); a longer one is cut and marked. */
export const TEXT_MAX = 300;
/** Nested reads in flight at once for one page. */
const NESTED_CONCURRENCY = 6;
/** The shape of a server keyset cursor (`<field>~…~<MAC>`, base64url fields, `*`-prefixed text) and its longest form. */
const CURSOR_RE = /^[A-Za-z0-9_*~-]{1,4096}$/;

export const BOARDS = ['tasks', 'approvals', 'schedules', 'workflows'] as const;
export type BoardName = (typeof BOARDS)[number];
export const DETAILS = { reviews: 'tasks', runs: 'schedules', steps: 'workflows' } as const;
export type DetailName = keyof typeof DETAILS;

/** A nested list read for its item: the first items, whether the server holds more (and where they continue), or why it could not be read. */
export type Nested<T> = { items: T[]; more: boolean; nextCursor?: string } | { error: string };
export interface BoardPage<T> {
  items: T[];
  hasMore: boolean;
  nextCursor?: string;
}
export type Failed = { error: string };

function codeOf(e: unknown): string {
  return e instanceof Error && 'code' in e ? String((e as { code: unknown }).code) : 'internal';
}

/** A text cut to TEXT_MAX characters (whole code points), with a mark when cut. */
export function clip(s: string): string {
  const cps = Array.from(s);
  return cps.length <= TEXT_MAX ? s : `${cps.slice(0, TEXT_MAX).join('')}… (cut)`;
}

export function checkCursor(cursor: string | undefined): string | undefined {
  if (cursor !== undefined && !CURSOR_RE.test(cursor)) throw new AppError('invalid_input', 'cursor is malformed: pass the nextCursor of the previous page unchanged');
  return cursor;
}

/** Runs fn over items, at most `limit` at once, keeping order. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const page = <T>(items: T[], p: { hasMore: boolean; nextCursor?: string }): BoardPage<T> => ({ items, hasMore: p.hasMore, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}) });

export class ConsoleBoards {
  constructor(private readonly owner: () => ServerApi) {}

  /** The first page of every board, read as the Human owner (the server authorizes each read); a board that fails says so alone. */
  async all() {
    const safe = async <T>(p: Promise<T>): Promise<T | Failed> => p.catch((e: unknown) => ({ error: codeOf(e) }));
    const [tasks, approvals, schedules, workflows] = await Promise.all(BOARDS.map((b) => safe(this.page(b))));
    return { tasks, approvals, schedules, workflows };
  }

  /**
   * One page of one board, continuing after `cursor`. A cursor the server refuses (tampered, for another board, or
   * stale) is the caller's bad input: invalid_input, never the first page.
   */
  async page(board: BoardName, cursor?: string): Promise<BoardPage<unknown>> {
    const api = this.owner();
    checkCursor(cursor);
    try {
      if (board === 'tasks') return await this.tasks(api, cursor);
      if (board === 'approvals') return await this.approvals(api, cursor);
      if (board === 'schedules') return await this.schedules(api, cursor);
      return await this.workflows(api, cursor);
    } catch (e) {
      if (cursor !== undefined && codeOf(e) === 'validation_failed') throw new AppError('invalid_input', `cursor refused: ${e instanceof Error ? e.message : 'malformed'}`, { hint: 'load the board again from its first page' });
      throw e;
    }
  }

  /** One page of an item's nested list (a task's reviews, a schedule's runs, a run's steps), continuing after `cursor`. */
  async detail(kind: DetailName, id: string, cursor?: string): Promise<BoardPage<unknown>> {
    if (!ID_RE.test(id)) throw new AppError('invalid_input', 'the item id is malformed');
    checkCursor(cursor);
    const api = this.owner();
    try {
      if (kind === 'reviews') {
        const p = await api.reviews.list({ target: `task:${id}`, limit: NESTED.reviews, ...(cursor ? { cursor } : {}) });
        return page(p.reviews.map(review), p);
      }
      if (kind === 'runs') {
        const p = await api.schedules.runs({ scheduleId: id, limit: NESTED.runs, ...(cursor ? { cursor } : {}) });
        return page(p.runs.map(run), p);
      }
      const p = await api.workflows.listSteps({ runId: id, limit: NESTED.steps, ...(cursor ? { cursor } : {}) });
      return page(p.steps.map(step), p);
    } catch (e) {
      if (cursor !== undefined && codeOf(e) === 'validation_failed') throw new AppError('invalid_input', `cursor refused: ${e instanceof Error ? e.message : 'malformed'}`);
      throw e;
    }
  }

  private async nested<T>(read: () => Promise<BoardPage<T>>): Promise<Nested<T>> {
    try {
      const p = await read();
      return { items: p.items, more: p.hasMore, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}) };
    } catch (e) {
      return { error: codeOf(e) };
    }
  }

  private async tasks(api: ServerApi, cursor?: string) {
    const p = await api.tasks.list({ limit: BOARD_PAGE, ...(cursor ? { cursor } : {}) });
    const reviews = await mapLimit(p.tasks, NESTED_CONCURRENCY, (t) => this.nested(() => this.detail('reviews', t.id) as Promise<BoardPage<ReturnType<typeof review>>>));
    return page(p.tasks.map((t, i) => ({ id: t.id, title: t.title, status: t.status, assignee: t.assignee?.name ?? null, blockedReason: t.blockedReason ? clip(t.blockedReason) : null, updatedAt: t.updatedAt, reviews: reviews[i]! })), p);
  }

  private async approvals(api: ServerApi, cursor?: string) {
    const p = await api.approvals.list({ status: 'pending', limit: BOARD_PAGE, ...(cursor ? { cursor } : {}) });
    return page(p.approvals.map((a) => ({ id: a.id, subject: a.subject, reason: a.reason, notify: a.notify, status: a.status, requester: a.requester.name, createdAt: a.createdAt })), p);
  }

  private async schedules(api: ServerApi, cursor?: string) {
    const p = await api.schedules.list({ limit: BOARD_PAGE, ...(cursor ? { cursor } : {}) });
    const runs = await mapLimit(p.schedules, NESTED_CONCURRENCY, (s) => this.nested(() => this.detail('runs', s.id) as Promise<BoardPage<ReturnType<typeof run>>>));
    return page(p.schedules.map((s, i) => ({ id: s.id, target: s.target, content: clip(s.content), cron: s.cron ?? null, at: s.at ?? null, enabled: s.enabled, nextRunAt: s.nextRunAt ?? null, runs: runs[i]! })), p);
  }

  private async workflows(api: ServerApi, cursor?: string) {
    const p = await api.workflows.listRuns({ limit: BOARD_PAGE, ...(cursor ? { cursor } : {}) });
    const steps = await mapLimit(p.runs, NESTED_CONCURRENCY, (r) => this.nested(() => this.detail('steps', r.id) as Promise<BoardPage<ReturnType<typeof step>>>));
    return page(p.runs.map((r, i) => ({ id: r.id, planName: r.planName, target: r.target, status: r.status, currentStep: r.currentStep, stepCount: r.stepCount, createdAt: r.createdAt, steps: steps[i]! })), p);
  }

  /** Approve or reject as the Human owner; the server checks that the owner may decide it. */
  decide(approvalId: string, decision: 'approve' | 'reject', note?: string) {
    const api = this.owner();
    const input = { approvalId, ...(note ? { note } : {}) };
    return decision === 'approve' ? api.approvals.approve(input) : api.approvals.reject(input);
  }
}

type ReviewIn = { id: string; verdict: string; status: string; body: string; author: { name: string } };
type RunIn = { id: string; scheduledFor: string; status: string; error?: string | null };
type StepIn = { id: string; index: number; title: string; status: string; agent?: { name: string } | null };
const review = (r: ReviewIn) => ({ id: r.id, verdict: r.verdict, status: r.status, body: clip(r.body), by: r.author.name });
const run = (r: RunIn) => ({ id: r.id, scheduledFor: r.scheduledFor, status: r.status, error: r.error ? clip(r.error) : null });
const step = (s: StepIn) => ({ id: s.id, index: s.index, title: s.title, status: s.status, assignee: s.agent?.name ?? null });
