// Owns the check-run part of one poll (GitHub Actions and other Checks API apps): the head's check-run pages read
// conditionally (each page's URL and validators kept, so an unchanged head costs one 304 a page) and one update line
// per check run whose state changed since the last poll. The state is per head sha: a new head starts fresh.
import { ProviderError, type ConditionalClient, type Validators } from './provider.js';

export interface ChecksState {
  sha: string;
  /** Check run id → its last seen state; at most MAX_CHECKS runs are remembered (and reported) per head. */
  runs: Record<string, string>;
  /** The pages read at the last poll, in order: URL (absent: the client's first page) and validators. */
  pages: { url?: string; v: Validators }[];
  /** The installation may not read check runs (403, no `checks: read`): not asked again for this head. */
  denied?: true;
}

export const MAX_CHECKS = 100;
export const MAX_CHECK_PAGES = 3;
const MAX_URL = 1000;

/**
 * Reads the check runs of `sha` and pushes a `CI: <name> <state>` line for each changed run onto `lines` (none when
 * `lines` is undefined: a baseline, or the first poll of a watch made before check runs were read).
 * Returns undefined when the provider has no check runs.
 */
export async function pollChecks(client: ConditionalClient, repo: string, sha: string, prev: ChecksState | undefined, lines: string[] | undefined): Promise<ChecksState | undefined> {
  if (!client.checks) return undefined;
  if (prev?.sha === sha && prev.denied) return prev;
  const old = prev?.sha === sha ? prev : { sha, runs: {}, pages: [] };
  const runs = { ...old.runs };
  let count = Object.keys(runs).length;
  const pages: ChecksState['pages'] = [];
  let url: string | undefined;
  for (let i = 0; i < MAX_CHECK_PAGES; i++) {
    const stored = old.pages[i];
    const v = stored && stored.url === url ? stored.v : {};
    let r;
    try {
      r = await client.checks(repo, sha, v, url);
    } catch (e) {
      // A missing `checks` permission must not stop the watch's reviews, comments and status.
      if (e instanceof ProviderError && e.reason === 'not_granted') return { sha, runs: {}, pages: [], denied: true };
      throw e;
    }
    if (!r.changed) {
      if (!stored) break;
      // Unchanged: the page and its Link are as stored, so the stored successor (if any) is read next.
      pages.push(stored);
      url = old.pages[i + 1]?.url;
      if (url === undefined) break;
      continue;
    }
    for (const run of r.body) {
      const key = String(run.id);
      if (runs[key] === run.state) continue;
      if (runs[key] === undefined && count >= MAX_CHECKS) continue;
      if (runs[key] === undefined) count++;
      runs[key] = run.state;
      lines?.push(`CI: ${run.name} ${run.state}`);
    }
    pages.push({ ...(url !== undefined ? { url } : {}), v: r.validators });
    if (!r.next || r.next.length > MAX_URL) break;
    url = r.next;
  }
  return { sha, runs, pages };
}
