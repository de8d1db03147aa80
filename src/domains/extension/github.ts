// Owns the GitHub REST client of one App installation: the PR, its reviews and review comments (paged, Link), and the
// combined commit status and the head's check runs (paged, Link), each read conditionally (If-None-Match /
// If-Modified-Since).
import { conditionalGet, rd, repoPath, type CheckView, type CommentView, type ConditionalClient, type ProviderHttp, type PullView, type ReviewView } from './provider.js';

const PER_PAGE = 100;
const STATUSES = new Set(['queued', 'in_progress', 'completed', 'waiting', 'requested', 'pending']);
const CONCLUSIONS = new Set(['success', 'failure', 'neutral', 'cancelled', 'skipped', 'timed_out', 'action_required', 'stale', 'startup_failure']);

/** A check run's name as posted: printable ASCII words only (no `@`, no markup, no newline), ≤ 60 chars. */
export const checkName = (v: unknown): string => (typeof v === 'string' ? v.slice(0, 200).replace(/\s+/g, ' ').replace(/[^A-Za-z0-9 _.:/()+#,-]/g, '').replace(/ +/g, ' ').trim().slice(0, 60) : '') || 'check';

function checkRun(x: unknown): CheckView {
  const o = rd.obj(x);
  const status = typeof o.status === 'string' && STATUSES.has(o.status) ? o.status : 'unknown';
  const conclusion = typeof o.conclusion === 'string' && CONCLUSIONS.has(o.conclusion) ? o.conclusion : o.conclusion == null ? '' : 'unknown';
  return { id: rd.int(o.id), name: checkName(o.name), state: (status === 'completed' && conclusion ? `completed: ${conclusion}` : status).replace(/_/g, ' ') };
}

export function githubClient(base: string, token: string, now: number): ConditionalClient {
  const h: ProviderHttp = { base, authorization: `Bearer ${token}`, headers: { 'x-github-api-version': '2022-11-28', accept: 'application/vnd.github+json', 'user-agent': 'agentteam' }, now };
  const pr = (repo: string, n: number) => `/repos/${repoPath(repo)}/pulls/${n}`;
  return {
    kind: 'conditional',
    exhaustedUntil: () => h.exhausted,
    pull: (repo, n, v) =>
      conditionalGet(h, pr(repo, n), v, (j): PullView => {
        const o = rd.obj(j);
        const head = rd.obj(o.head);
        const state = rd.str(o.state);
        return { state: o.merged === true || (typeof o.merged_at === 'string' && o.merged_at) ? 'merged' : state === 'closed' ? 'closed' : 'open', headSha: rd.sha(head.sha) };
      }),
    reviews: (repo, n, v, url) =>
      conditionalGet(h, url ?? `${pr(repo, n)}/reviews?per_page=${PER_PAGE}`, v, (j) =>
        rd.arr(j).map((x): ReviewView => {
          const o = rd.obj(x);
          return { id: rd.int(o.id), user: rd.login(o.user), state: rd.word(o.state) };
        }),
      ),
    comments: (repo, n, v, url) =>
      conditionalGet(h, url ?? `${pr(repo, n)}/comments?per_page=${PER_PAGE}`, v, (j) =>
        rd.arr(j).map((x): CommentView => {
          const o = rd.obj(x);
          return { id: rd.int(o.id), user: rd.login(o.user), ...(typeof o.path === 'string' ? { path: rd.path(o.path) } : {}) };
        }),
      ),
    ci: (repo, sha, v) => conditionalGet(h, `/repos/${repoPath(repo)}/commits/${encodeURIComponent(sha)}/status`, v, (j) => rd.word(rd.obj(j).state, 20)),
    // filter=latest (the default, said explicitly): a re-run replaces its earlier run in the list.
    checks: (repo, sha, v, url) => conditionalGet(h, url ?? `/repos/${repoPath(repo)}/commits/${encodeURIComponent(sha)}/check-runs?filter=latest&per_page=${PER_PAGE}`, v, (j) => rd.arr(rd.obj(j).check_runs).map(checkRun)),
  };
}
