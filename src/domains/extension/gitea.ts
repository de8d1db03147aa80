// Owns the Gitea REST client of one App installation: the PR, its reviews and comments (paged with page/limit and
// Link), and the combined commit status. Gitea sends ETags only on raw/LFS/attachments, so these reads are plain GETs
// whose pages are stored and re-read (the stored last page picks up new items); `since` bounds the comment reads.
import { conditionalGet, rd, repoPath, type CommentView, type ProviderClient, type ProviderHttp, type PullView, type ReviewView } from './provider.js';

const LIMIT = 50;

export function giteaClient(base: string, token: string, now: number): ProviderClient {
  const h: ProviderHttp = { base, authorization: `token ${token}`, headers: { 'user-agent': 'agentteam' }, now };
  const repoAt = (repo: string) => `/repos/${repoPath(repo)}`;
  return {
    exhaustedUntil: () => h.exhausted,
    pull: (repo, n, v) =>
      conditionalGet(h, `${repoAt(repo)}/pulls/${n}`, v, (j): PullView => {
        const o = rd.obj(j);
        const head = rd.obj(o.head);
        return { state: o.merged === true ? 'merged' : rd.str(o.state) === 'closed' ? 'closed' : 'open', headSha: rd.str(head.sha, 64) };
      }),
    reviews: (repo, n, v, url) =>
      conditionalGet(h, url ?? `${repoAt(repo)}/pulls/${n}/reviews?limit=${LIMIT}&page=1`, v, (j) =>
        rd.arr(j).map((x): ReviewView => {
          const o = rd.obj(x);
          return { id: rd.int(o.id), user: rd.login(o.user), state: rd.word(o.state) };
        }),
      ),
    comments: (repo, n, v, url) =>
      conditionalGet(h, url ?? `${repoAt(repo)}/issues/${n}/comments?limit=${LIMIT}&page=1`, v, (j) =>
        rd.arr(j).map((x): CommentView => {
          const o = rd.obj(x);
          return { id: rd.int(o.id), user: rd.login(o.user) };
        }),
      ),
    ci: (repo, sha, v) => conditionalGet(h, `${repoAt(repo)}/commits/${encodeURIComponent(sha)}/status`, v, (j) => (typeof rd.obj(j).state === 'string' && rd.obj(j).state ? rd.word(rd.obj(j).state, 20) : 'none')),
  };
}
