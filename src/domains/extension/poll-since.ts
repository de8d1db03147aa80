// Owns one poll of one watched PR on a since-polled provider (Gitea, gitea.ts says why): the PR's timeline pages
// updated at or after the watch's `since`, each new comment, review (its state read by id) and PR change (the PR read
// again) as an update line, then the CI status. `since` is the provider's own clock (its Date header) when the last
// complete read began, less SINCE_OVERLAP_MS; items are deduplicated by id, so the overlap never posts twice.
import { ProviderError, type EventView, type SinceClient } from './provider.js';
import { TIMELINE_LIMIT } from './gitea.js';
import { applyPull, finish, pollCi, type PollResult, type WatchState } from './watch-state.js';

/** Pages read per poll at most; a longer timeline continues at the next poll (state.resume). */
export const MAX_TIMELINE_PAGES = 10;
/** Reviews whose state is read per poll at most; later ones are said without their state. */
const MAX_REVIEW_READS = 20;
/**
 * `since` is taken this much before the provider's clock: an event is stamped (in whole seconds) when it is written,
 * which can be a moment before it commits and before the answer's Date is set; a re-read event is deduplicated by id.
 */
export const SINCE_OVERLAP_MS = 10_000;
/**
 * The PR is read at least every this many polls even without a push, close, reopen or merge event: a head moved without
 * a timeline event (a Gitea that skipped one) is then still reported, and the CI status read follows the new head.
 */
export const PULL_REREAD_POLLS = 10;

/** RFC 3339 in whole seconds, UTC (Gitea parses `since` with time.RFC3339 and compares whole seconds). */
const rfc3339 = (ms: number) => new Date(Math.max(0, ms)).toISOString().replace(/\.\d{3}Z$/, 'Z');

export async function pollSince(client: SinceClient, repo: string, n: number, prev: WatchState, baseline: boolean): Promise<PollResult> {
  const s: WatchState = { ...prev, v: { ...prev.v }, pages: { ...prev.pages } };
  const lines: string[] = [];
  // A new watch, or one made before timeline reads (no `since`), starts at the provider's clock and records what its
  // first read finds without posting it: only what comes next is reported.
  const first = baseline || s.since === undefined;
  let pullRead = false;
  const readPull = async () => {
    const pull = await client.pull(repo, n, {});
    // Read without validators: a 304 would be a broken answer.
    if (!pull.changed) throw new ProviderError('failed', 'bad_response');
    pullRead = true;
    applyPull(s, pull.body, baseline, lines);
    return pull;
  };
  let since = s.since;
  let page = s.resume?.page ?? 1;
  let nextSince = s.resume?.since;
  if (first) {
    const pull = await readPull();
    since = rfc3339(pull.date - SINCE_OVERLAP_MS);
    page = 1;
    nextSince = undefined;
  }
  const events: EventView[] = [];
  let complete = false;
  for (let i = 0; i < MAX_TIMELINE_PAGES; i++, page++) {
    const r = await client.timeline(repo, n, since!, page);
    if (!r.changed) throw new ProviderError('failed', 'bad_response');
    if (page === 1) nextSince = rfc3339(r.date - SINCE_OVERLAP_MS);
    events.push(...r.body);
    if (r.body.length < TIMELINE_LIMIT) {
      complete = true;
      break;
    }
  }
  if (complete) {
    s.since = nextSince ?? since;
    delete s.resume;
  } else {
    s.since = since;
    s.resume = { page, since: nextSince ?? since! };
  }
  let pullChanged = false;
  let reads = 0;
  for (const e of events) {
    if (e.kind === 'comment' && e.id > s.maxComment) {
      s.maxComment = e.id;
      if (!first) lines.push(`comment by ${e.user}`);
    } else if (e.kind === 'review' && e.reviewId !== undefined && e.reviewId > s.maxReview) {
      s.maxReview = e.reviewId;
      if (first) continue;
      let state: string | undefined;
      if (reads++ < MAX_REVIEW_READS) {
        try {
          const r = await client.review(repo, n, e.reviewId);
          if (r.changed) state = r.body.state;
        } catch (err) {
          // A review deleted since its event is still said, without its state.
          if (!(err instanceof ProviderError && err.reason === 'not_found')) throw err;
        }
      }
      lines.push(`review by ${e.user}${state ? `: ${state.replace(/_/g, ' ')}` : ''}`);
    } else if (e.kind === 'pull' && e.id > (s.maxEvent ?? 0)) {
      s.maxEvent = e.id;
      pullChanged = true;
    }
  }
  if ((pullChanged || (s.sincePull ?? 0) + 1 >= PULL_REREAD_POLLS) && !pullRead) await readPull();
  s.sincePull = pullRead ? 0 : (s.sincePull ?? 0) + 1;
  await pollCi(client, repo, s, baseline, lines);
  return finish(s, lines);
}
