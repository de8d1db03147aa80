// Owns the Boards section's data: the shapes of src/console/boards.ts, board pages continued by cursor, refreshes that re-walk what is shown, nested lists continued per item.
import { useEffect, useRef, useState } from 'preact/hooks';
import { get } from './api.js';

export type Failed = { error: string };
/** `moreError`: the page's own note that Show more failed (the items read so far stay). */
export type Nested<T> = { items: T[]; more: boolean; nextCursor?: string; moreError?: string } | Failed;
export interface Page<T> {
  items: T[];
  hasMore: boolean;
  nextCursor?: string;
}
export interface Review { id: string; verdict: string; status: string; body: string; by: string }
export interface Run { id: string; scheduledFor: string; status: string; error: string | null }
export interface Step { id: string; index: number; title: string; status: string; assignee: string | null }
export interface Task { id: string; title: string; status: string; assignee: string | null; blockedReason: string | null; reviews: Nested<Review> }
export interface Approval { id: string; subject: string; reason: string; status: string; notify: string; requester: string }
export interface Schedule { id: string; target: string; content: string; cron: string | null; at: string | null; enabled: boolean; nextRunAt: string | null; runs: Nested<Run> }
export interface Workflow { id: string; planName: string; target: string; status: string; currentStep: number | null; stepCount: number; steps: Nested<Step> }
export interface Items { tasks: Task; approvals: Approval; schedules: Schedule; workflows: Workflow }
export type BoardName = keyof Items;
export const BOARDS: BoardName[] = ['approvals', 'tasks', 'schedules', 'workflows'];
/** One board as the page holds it: the items of the pages loaded so far, or why its first page could not be read. */
export type Board<T> = (Page<T> & { pages: number }) | Failed;
export type Boards = { [K in BoardName]: Board<Items[K]> };
/** The nested list kinds and the board each hangs off (the console API's /boards/{board}/{id}/{detail}). */
export const DETAIL_OF = { tasks: 'reviews', schedules: 'runs', workflows: 'steps' } as const;

const REFRESH_MS = 5000;

export function failed<T extends object>(v: T | Failed): v is Failed {
  return 'error' in v && !('items' in v);
}

const withId = <T extends { id: string }>(a: T[], b: T[]) => [...a, ...b.filter((x) => !a.some((y) => y.id === x.id))];

function append<T extends { id: string }>(b: Board<T>, p: Page<T>): Board<T> {
  if (failed(b)) return b;
  return { items: withId(b.items, p.items), hasMore: p.hasMore, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}), pages: b.pages + 1 };
}

const pageUrl = (board: string, cursor: string) => `/console/api/boards/${board}?cursor=${encodeURIComponent(cursor)}`;

/**
 * The boards, refreshed every few seconds by walking again as many pages as the person has loaded (fresh cursors each
 * time, so a decided approval on a later page goes and nothing stays stale). `more` loads a board's next page.
 */
export function useBoards() {
  const [boards, setBoards] = useState<Boards | undefined>();
  const [error, setError] = useState('');
  const [focus, setFocus] = useState<string | undefined>();
  const wanted = useRef<Record<BoardName, number>>({ tasks: 1, approvals: 1, schedules: 1, workflows: 1 });
  /** Bumped by every Load more: a refresh that began before one is dropped rather than undo it. */
  const generation = useRef(0);
  const queue = useRef<Promise<void>>(Promise.resolve());

  /** Walks every board again; a later page that fails stops that board there and is said (the board keeps the pages read). */
  const walk = async (): Promise<string[]> => {
    const gen = generation.current;
    const first = await get<{ [K in BoardName]: Page<Items[K]> | Failed }>('/console/api/boards');
    const next = {} as Record<BoardName, Board<{ id: string }>>;
    const problems: string[] = [];
    for (const name of BOARDS) {
      const f = first[name];
      let b: Board<{ id: string }> = failed(f) ? f : { ...f, pages: 1 };
      try {
        while (!failed(b) && b.pages < wanted.current[name] && b.nextCursor) b = append(b, await get<Page<{ id: string }>>(pageUrl(name, b.nextCursor)));
      } catch (e) {
        problems.push(`page ${failed(b) ? 2 : b.pages + 1} of ${name} could not be read again (${(e as Error).message}); Load more reads it`);
      }
      next[name] = b;
    }
    if (gen === generation.current) setBoards(next as unknown as Boards);
    return problems;
  };
  const refresh = () => {
    queue.current = queue.current.then(walk).then((p) => setError(p.join('; ')), (e: Error) => setError(`Could not refresh the boards: ${e.message}`));
    return queue.current;
  };
  useEffect(() => {
    void refresh();
    const t = setInterval(() => void refresh(), REFRESH_MS);
    return () => clearInterval(t);
  }, []);
  useEffect(() => {
    // After Load more, keyboard focus moves to the first item it added.
    if (focus) document.querySelector<HTMLElement>(`[data-focus="${CSS.escape(focus)}"]`)?.focus();
  }, [focus]);

  const more = async (name: BoardName) => {
    const b = boards?.[name];
    if (!b || failed(b) || !b.nextCursor) return;
    generation.current++;
    try {
      const p = await get<Page<{ id: string }>>(pageUrl(name, b.nextCursor));
      const added = p.items.find((x) => !b.items.some((y) => y.id === x.id));
      wanted.current[name] = b.pages + 1;
      setBoards((all) => (all ? ({ ...all, [name]: append(all[name] as Board<{ id: string }>, p) } as Boards) : all));
      if (added) setFocus(`${name}:${added.id}`);
      setError('');
    } catch (e) {
      setError(`Could not load more ${name}: ${(e as Error).message}`);
    }
  };
  return { boards, error, setError, refresh, more };
}

/** An item's nested list with the pages loaded past the first (Show more), merged by id. */
export function useNestedMore() {
  const [extra, setExtra] = useState<Record<string, { items: Array<{ id: string }>; more: boolean; nextCursor?: string } | Failed>>({});
  const merged = <T extends { id: string }>(board: keyof typeof DETAIL_OF, id: string, n: Nested<T>): Nested<T> => {
    const x = extra[`${board}/${id}`];
    if (failed(n) || !x) return n;
    if (failed(x)) return { ...n, moreError: x.error };
    return { items: withId(n.items, x.items as T[]), more: x.more, ...(x.nextCursor ? { nextCursor: x.nextCursor } : {}) };
  };
  const more = async (board: keyof typeof DETAIL_OF, id: string, cursor: string) => {
    const key = `${board}/${id}`;
    try {
      const p = await get<Page<{ id: string }>>(`/console/api/boards/${board}/${encodeURIComponent(id)}/${DETAIL_OF[board]}?cursor=${encodeURIComponent(cursor)}`);
      setExtra((all) => {
        const prev = all[key];
        const items = prev && !failed(prev) ? withId(prev.items, p.items) : p.items;
        return { ...all, [key]: { items, more: p.hasMore, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}) } };
      });
    } catch (e) {
      setExtra((all) => ({ ...all, [key]: { error: (e as Error).message } }));
    }
  };
  return { merged, more };
}
