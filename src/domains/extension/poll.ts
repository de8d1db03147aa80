// Owns one poll of one watched PR on a conditional provider (GitHub): conditional reads of the PR, its reviews and
// comments (the stored last page, then its Link successors), the CI status and the head's check runs (checks.ts); the
// diff against the watch's state becomes update lines. Items are deduplicated by their provider id (ids only grow), so
// a page read twice never posts an update twice. A since-polled provider (Gitea) is read by poll-since.ts.
import type { ConditionalClient, Fetched, ProviderClient, Validators } from './provider.js';
import { pollChecks } from './checks.js';
import { pollSince } from './poll-since.js';
import { applyPull, emptyState, finish, pollCi, type PollResult, type WatchState } from './watch-state.js';

export { emptyState, type PollResult, type WatchState };

/** Pages followed per list in one poll at most; the rest are read at the next poll. */
const MAX_PAGES = 10;
/** The smaller page size of the two providers' list reads (Gitea 50, GitHub 100). */
const FULL_PAGE = 50;

async function walk<T extends { id: number }>(read: (v: Validators, url?: string) => Promise<Fetched<T[]>>, from: string | undefined, v: Validators | undefined, seen: number, onNew: (item: T) => void): Promise<{ page?: string; v?: Validators; max: number }> {
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

async function pollConditional(client: ConditionalClient, repo: string, n: number, prev: WatchState, baseline: boolean): Promise<PollResult> {
  const s: WatchState = { ...prev, v: { ...prev.v }, pages: { ...prev.pages } };
  const lines: string[] = [];
  const pull = await client.pull(repo, n, s.v.pull ?? {});
  if (pull.changed) {
    s.v.pull = pull.validators;
    applyPull(s, pull.body, baseline, lines);
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
  await pollCi(client, repo, s, baseline, lines);
  if (s.sha) {
    // A watch's first check-run read (its baseline, or a watch older than check runs) records without posting.
    const checks = await pollChecks(client, repo, s.sha, s.checks, baseline || !s.checks ? undefined : lines);
    if (checks) s.checks = checks;
  }
  return finish(s, lines);
}

/**
 * Polls once. With `baseline` the state is recorded without update lines (a new watch reports only what comes next).
 * Provider failures propagate as ProviderError.
 */
export function pollOnce(client: ProviderClient, repo: string, n: number, prev: WatchState, baseline: boolean): Promise<PollResult> {
  return client.kind === 'since' ? pollSince(client, repo, n, prev, baseline) : pollConditional(client, repo, n, prev, baseline);
}
