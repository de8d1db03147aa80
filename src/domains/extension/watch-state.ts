// Owns what one poll of a watched PR keeps and says, whichever way the provider is read: the watch's state, the PR and
// CI diffs as update lines, and the bound and order of the lines one poll posts.
import type { ChecksState } from './checks.js';
import type { ProviderClient, PullView, Validators } from './provider.js';

export interface WatchState {
  pr?: 'open' | 'closed' | 'merged';
  sha?: string;
  ci?: string;
  /** Largest review id and comment id seen (ids only grow): an item read twice is posted once. */
  maxReview: number;
  maxComment: number;
  v: { pull?: Validators; reviews?: Validators; comments?: Validators; ci?: Validators };
  /** The last page read of each list (a path or a provider Link URL); new items appear there (conditional providers). */
  pages: { reviews?: string; comments?: string };
  /** The head's check runs (GitHub); absent in watches made before check runs were read. */
  checks?: ChecksState;
  /** Since-polled providers (Gitea): the RFC 3339 time the next timeline read starts at (the provider's clock). */
  since?: string;
  /** Largest PR-change event id seen (push, close, reopen, merge). */
  maxEvent?: number;
  /** A timeline read cut at its page bound: the page to continue at (with `since`), and the `since` that follows it. */
  resume?: { page: number; since: string };
  /** Since-polled providers: polls since the PR itself was last read (see PULL_REREAD_POLLS in poll-since.ts). */
  sincePull?: number;
}

export const emptyState = (): WatchState => ({ maxReview: 0, maxComment: 0, v: {}, pages: {} });

export interface PollResult {
  state: WatchState;
  lines: string[];
  /** The PR is merged or closed: the watch stops. */
  done: boolean;
}

const MAX_LINES = 20;

/** Records a read of the PR into `s`; a new head or a merge/close becomes a line unless `baseline`. */
export function applyPull(s: WatchState, pull: PullView, baseline: boolean, lines: string[]): void {
  if (pull.headSha !== s.sha) {
    if (s.sha && !baseline) lines.push(`new commits (head ${pull.headSha.slice(0, 7)})`);
    s.sha = pull.headSha;
    s.v.ci = {};
  }
  if (pull.state !== s.pr && s.pr !== undefined && !baseline && pull.state !== 'open') lines.push(pull.state === 'merged' ? 'merged' : 'closed without merging');
  s.pr = pull.state;
}

/** Reads the head's combined CI status (conditionally where the provider can) and says a change. */
export async function pollCi(client: ProviderClient, repo: string, s: WatchState, baseline: boolean, lines: string[]): Promise<void> {
  if (!s.sha) return;
  const ci = await client.ci(repo, s.sha, s.v.ci ?? {});
  if (!ci.changed) return;
  s.v.ci = ci.validators;
  const state = ci.body || 'none';
  if (state !== s.ci && !baseline && !(s.ci === undefined && state === 'none')) lines.push(`CI ${state}${s.ci && s.ci !== 'none' ? ` (was ${s.ci})` : ''}`);
  s.ci = state;
}

/** Bounds the lines (at most MAX_LINES; the count of the rest is said, never dropped silently) and says merged/closed last. */
export function finish(s: WatchState, lines: string[]): PollResult {
  const out = lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES - 1), `…and ${lines.length - MAX_LINES + 1} more updates`] : lines;
  const end = out.findIndex((l) => l === 'merged' || l === 'closed without merging');
  if (end >= 0) out.push(...out.splice(end, 1));
  return { state: s, lines: out, done: s.pr === 'merged' || s.pr === 'closed' };
}
