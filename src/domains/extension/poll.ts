// Owns one poll of one watched PR: conditional reads of the PR, its reviews and comments (the stored last page, then
// its Link successors), the CI status and the head's check runs (checks.ts); the diff against the watch's state becomes update lines. Items are
// deduplicated by their provider id (ids only grow), so a page read twice never posts an update twice.
import type { ProviderClient, Validators } from './provider.js';
import { pollChecks, type ChecksState } from './checks.js';

export interface WatchState {
  pr?: 'open' | 'closed' | 'merged';
  sha?: string;
  ci?: string;
  maxReview: number;
  maxComment: number;
  v: { pull?: Validators; reviews?: Validators; comments?: Validators; ci?: Validators };
  /** The last page read of each list (a path or a provider Link URL); new items appear there. */
  pages: { reviews?: string; comments?: string };
  /** The head's check runs (GitHub); absent in watches made before check runs were read. */
  checks?: ChecksState;
}

export const emptyState = (): WatchState => ({ maxReview: 0, maxComment: 0, v: {}, pages: {} });

/** Pages followed per list in one poll at most; the rest are read at the next poll. */
const MAX_PAGES = 10;
const MAX_LINES = 20;
/** The smaller page size of the two providers' list reads (Gitea 50, GitHub 100). */
const FULL_PAGE = 50;

export interface PollResult {
  state: WatchState;
  lines: string[];
  /** The PR is merged or closed: the watch stops. */
  done: boolean;
}

async function walk<T extends { id: number }>(read: (v: Validators, url?: string) => Promise<import('./provider.js').Fetched<T[]>>, from: string | undefined, v: Validators | undefined, seen: number, onNew: (item: T) => void): Promise<{ page?: string; v?: Validators; max: number }> {
  let url = from;
  let validators = v ?? {};
  let max = seen;
  for (let i = 0; i < MAX_PAGES; i++) {
    const r = await read(validators, url);
    if (!r.changed) break;
    for (const item of r.body) if (item.id > max) (onNew(item), (max = item.id));
    // A full page may grow a successor that its own validators would hide (304): it is re-read without them.
    validators = r.body.length >= FULL_PAGE ? {} : r.validators;
    if (!r.next) break;
    url = r.next;
    validators = {};
  }
  return { ...(url !== undefined ? { page: url } : {}), v: validators, max };
}

/**
 * Polls once. With `baseline` the state is recorded without update lines (a new watch reports only what comes next).
 * Provider failures propagate as ProviderError.
 */
export async function pollOnce(client: ProviderClient, repo: string, n: number, prev: WatchState, baseline: boolean): Promise<PollResult> {
  const s: WatchState = { ...prev, v: { ...prev.v }, pages: { ...prev.pages } };
  const lines: string[] = [];
  const pull = await client.pull(repo, n, s.v.pull ?? {});
  if (pull.changed) {
    s.v.pull = pull.validators;
    if (pull.body.headSha !== s.sha) {
      if (s.sha && !baseline) lines.push(`new commits (head ${pull.body.headSha.slice(0, 7)})`);
      s.sha = pull.body.headSha;
      s.v.ci = {};
    }
    if (pull.body.state !== s.pr && s.pr !== undefined && !baseline && pull.body.state !== 'open') lines.push(pull.body.state === 'merged' ? 'merged' : 'closed without merging');
    s.pr = pull.body.state;
  }
  const reviews = await walk((v, url) => client.reviews(repo, n, v, url), s.pages.reviews, s.v.reviews, s.maxReview, (r) => {
    if (!baseline) lines.push(`review by ${r.user}: ${r.state.replace(/_/g, ' ')}`);
  });
  s.maxReview = reviews.max;
  if (reviews.page !== undefined) s.pages.reviews = reviews.page;
  if (reviews.v) s.v.reviews = reviews.v;
  const comments = await walk((v, url) => client.comments(repo, n, v, url), s.pages.comments, s.v.comments, s.maxComment, (c) => {
    if (!baseline) lines.push(`comment by ${c.user}${c.path ? ` on ${c.path}` : ''}`);
  });
  s.maxComment = comments.max;
  if (comments.page !== undefined) s.pages.comments = comments.page;
  if (comments.v) s.v.comments = comments.v;
  if (s.sha) {
    const ci = await client.ci(repo, s.sha, s.v.ci ?? {});
    if (ci.changed) {
      s.v.ci = ci.validators;
      const state = ci.body || 'none';
      if (state !== s.ci && !baseline && !(s.ci === undefined && state === 'none')) lines.push(`CI ${state}${s.ci && s.ci !== 'none' ? ` (was ${s.ci})` : ''}`);
      s.ci = state;
    }
    // A watch's first check-run read (its baseline, or a watch older than check runs) records without posting.
    const checks = await pollChecks(client, repo, s.sha, s.checks, baseline || !s.checks ? undefined : lines);
    if (checks) s.checks = checks;
  }
  const done = s.pr === 'merged' || s.pr === 'closed';
  // Bound: one poll posts at most MAX_LINES lines; the count of the rest is said, never dropped silently.
  const out = lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES - 1), `…and ${lines.length - MAX_LINES + 1} more updates`] : lines;
  // Merged/closed is said last, after the reviews and CI that led to it.
  const end = out.findIndex((l) => l === 'merged' || l === 'closed without merging');
  if (end >= 0) out.push(...out.splice(end, 1));
  return { state: s, lines: out, done };
}
