// Owns the Gitea REST client of one App installation (a Gitea access token: Gitea has no App installations): the PR,
// its timeline read with `since` and paged (page/limit), one review's state, and the combined commit status.
//
// Why the timeline and not `GET /notifications?since=`: notifications belong to the token's user and exist only for
// threads that user watches or takes part in (a bot would have to subscribe to every watched PR, a write on the
// provider), never include commit-status changes, and are not created for the user's own actions. Gitea sends ETags
// only on raw/LFS/attachments, so nothing here is conditional; instead the timeline
// (`GET /repos/{o}/{r}/issues/{n}/timeline?since=&page=&limit=`) answers only the events updated at or after `since`
// (comments, submitted reviews, pushes, close/reopen/merge; code comments excluded), oldest first: an unchanged PR costs
// one empty page. Its X-Total-Count is the page's own length and it sends no Link, so a full page means "read the next".
// The PR itself has no `since`; it is read when the timeline shows a push, close, reopen or merge. Commit statuses
// have no `since` either and make no timeline event: the combined status is read each poll (one small object).
import { conditionalGet, rd, repoPath, type EventView, type ProviderHttp, type PullView, type ReviewView, type SinceClient } from './provider.js';

/** Gitea's largest page (its default MAX_RESPONSE_ITEMS). */
export const TIMELINE_LIMIT = 50;
const PULL_EVENTS = new Set(['pull_push', 'close', 'reopen', 'merge_pull']);

function event(x: unknown): EventView {
  const o = rd.obj(x);
  const type = typeof o.type === 'string' ? o.type : '';
  const kind = type === 'comment' ? 'comment' : type === 'review' ? 'review' : PULL_EVENTS.has(type) ? 'pull' : 'other';
  const reviewId = typeof o.review_id === 'number' && Number.isSafeInteger(o.review_id) && o.review_id > 0 ? o.review_id : undefined;
  return { id: rd.int(o.id), kind, user: rd.login(o.user), ...(reviewId !== undefined ? { reviewId } : {}) };
}

export function giteaClient(base: string, token: string, now: number): SinceClient {
  const h: ProviderHttp = { base, authorization: `token ${token}`, headers: { 'user-agent': 'agentteam' }, now };
  const repoAt = (repo: string) => `/repos/${repoPath(repo)}`;
  return {
    kind: 'since',
    exhaustedUntil: () => h.exhausted,
    pull: (repo, n, v) =>
      conditionalGet(h, `${repoAt(repo)}/pulls/${n}`, v, (j): PullView => {
        const o = rd.obj(j);
        const head = rd.obj(o.head);
        return { state: o.merged === true ? 'merged' : rd.str(o.state) === 'closed' ? 'closed' : 'open', headSha: rd.sha(head.sha) };
      }),
    timeline: (repo, n, since, page) => conditionalGet(h, `${repoAt(repo)}/issues/${n}/timeline?since=${encodeURIComponent(since)}&page=${page}&limit=${TIMELINE_LIMIT}`, {}, (j) => rd.arr(j).map(event)),
    review: (repo, n, id) =>
      conditionalGet(h, `${repoAt(repo)}/pulls/${n}/reviews/${id}`, {}, (j): ReviewView => {
        const o = rd.obj(j);
        return { id: rd.int(o.id), user: rd.login(o.user), state: rd.word(o.state) };
      }),
    ci: (repo, sha, v) => conditionalGet(h, `${repoAt(repo)}/commits/${encodeURIComponent(sha)}/status`, v, (j) => (typeof rd.obj(j).state === 'string' && rd.obj(j).state ? rd.word(rd.obj(j).state, 20) : 'none')),
  };
}
