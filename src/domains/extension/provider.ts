// Owns what both provider clients share: the normalized PR view, conditional GETs with ETag / Last-Modified, Link
// pagination, rate-limit headers, and the one classification of provider failures (unauthorized vs failed).
// Security invariant: a provider's response body is parsed into the normalized view or dropped; it never reaches an error.

export type ProviderFailure = 'revoked' | 'suspended' | 'not_granted' | 'not_installed' | 'rate_limited' | 'not_found' | 'unavailable' | 'bad_response';

/** A classified provider failure: `unauthorized` (the App's authorization) or `failed` (the provider API). */
export class ProviderError extends Error {
  constructor(
    readonly kind: 'unauthorized' | 'failed',
    readonly reason: ProviderFailure,
    /** Rate limited: when the provider says requests may resume (epoch ms). */
    readonly resetAt?: number,
  ) {
    super(`provider ${kind}: ${reason}`);
    this.name = 'ProviderError';
  }
}

export interface Validators {
  etag?: string;
  lastModified?: string;
}
/**
 * A conditional read: unchanged (304), or the body with its validators, the next page's URL and the provider's clock
 * when it answered (its `Date` header, else this server's clock; epoch ms).
 */
export type Fetched<T> = { changed: false } | { changed: true; body: T; validators: Validators; next?: string; date: number };

export interface PullView {
  state: 'open' | 'closed' | 'merged';
  headSha: string;
}
export interface ReviewView {
  id: number;
  user: string;
  state: string;
}
export interface CommentView {
  id: number;
  user: string;
  path?: string;
}
/** A combined CI state: success, failure, pending, error (or none). */
export type CiState = string;
/** A check run (GitHub Actions and other Checks API apps): its name (sanitized) and `status` or `completed: conclusion`. */
export interface CheckView {
  id: number;
  name: string;
  state: string;
}

/**
 * One event of a PR's timeline (Gitea): a comment, a submitted review (its review id), a change of the PR itself
 * (a push, close, reopen or merge: the PR is read again), or anything else (labels, assignees, …: ignored).
 */
export interface EventView {
  id: number;
  kind: 'comment' | 'review' | 'pull' | 'other';
  user: string;
  reviewId?: number;
}

interface BaseClient {
  pull(repo: string, n: number, v: Validators): Promise<Fetched<PullView>>;
  ci(repo: string, sha: string, v: Validators): Promise<Fetched<CiState>>;
  /** Set when an answer said the rate limit is used up (`x-ratelimit-remaining: 0`): its reset (epoch ms). */
  exhaustedUntil(): number | undefined;
}
/** A provider with conditional requests (GitHub): every list is re-read with its validators (an unchanged one is a 304). */
export interface ConditionalClient extends BaseClient {
  kind: 'conditional';
  /** One page of reviews, ascending by id; `url` continues a stored page. */
  reviews(repo: string, n: number, v: Validators, url?: string): Promise<Fetched<ReviewView[]>>;
  comments(repo: string, n: number, v: Validators, url?: string): Promise<Fetched<CommentView[]>>;
  /** One page of the head's check runs (GitHub only; Gitea Actions reports through the commit status). */
  checks?(repo: string, sha: string, v: Validators, url?: string): Promise<Fetched<CheckView[]>>;
}
/** A provider without ETags on its API (Gitea): the PR's timeline is read with `since` and paged (poll-since.ts). */
export interface SinceClient extends BaseClient {
  kind: 'since';
  /** One page (1-based) of the PR's timeline events updated at or after `since` (RFC 3339), oldest first. */
  timeline(repo: string, n: number, since: string, page: number): Promise<Fetched<EventView[]>>;
  /** One review (its state), named by a timeline event. */
  review(repo: string, n: number, id: number): Promise<Fetched<ReviewView>>;
}
/** A provider App client for one installation; every call carries the installation's credential. */
export type ProviderClient = ConditionalClient | SinceClient;

export interface ProviderHttp {
  base: string;
  authorization: string;
  headers: Record<string, string>;
  /** Seconds-to-ms parsing of reset headers uses this clock reading. */
  now: number;
  /** Written by conditionalGet when a successful answer says the rate limit is used up. */
  exhausted?: number;
}

const MAX_BODY = 4 * 1024 * 1024;
const TIMEOUT_MS = 10_000;
/** Longest next-page URL kept (GitHub's are ~100 characters). */
const MAX_PAGE_URL = 2048;

/** rel="next" of an RFC 8288 Link header. */
export function nextLink(link: string | null): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const m = /^\s*<([^>]+)>\s*;(.*)$/.exec(part);
    if (m && /rel="?next"?/.test(m[2]!)) return m[1];
  }
  return undefined;
}

function resetOf(h: Headers, now: number): number | undefined {
  const retry = h.get('retry-after');
  if (retry && /^\d{1,6}$/.test(retry)) return now + Number(retry) * 1000;
  const reset = h.get('x-ratelimit-reset');
  if (reset && /^\d{1,12}$/.test(reset)) return Number(reset) * 1000;
  return undefined;
}

/**
 * The first `max` bytes of a body as text, and whether there was more; the rest is never read (a hostile or broken
 * provider cannot make the server hold a body of any size: the timeout bounds its time, this its bytes).
 */
export async function readUpTo(res: Response, max: number): Promise<{ text: string; over: boolean }> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (!res.body) return { text: '', over: false };
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let over = Number.isFinite(declared) && declared > max;
  try {
    while (!over) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = max - size;
      parts.push(value.byteLength > room ? value.subarray(0, room) : value);
      size += Math.min(value.byteLength, room);
      over = value.byteLength > room;
    }
  } finally {
    if (over) void reader.cancel().catch(() => undefined);
  }
  return { text: Buffer.concat(parts, size).toString('utf8'), over };
}

/** Classifies a non-2xx answer; the body is read only to tell a suspension from a missing grant, never kept. */
async function classify(res: Response, now: number): Promise<ProviderError> {
  const s = res.status;
  if (s === 401) return new ProviderError('unauthorized', 'revoked');
  if (s === 429 || (s === 403 && (res.headers.get('x-ratelimit-remaining') === '0' || res.headers.get('retry-after')))) return new ProviderError('failed', 'rate_limited', resetOf(res.headers, now) ?? now + 60_000);
  if (s === 403) {
    const text = (await readUpTo(res, 2000).catch(() => ({ text: '' }))).text.toLowerCase();
    return new ProviderError('unauthorized', text.includes('suspended') ? 'suspended' : 'not_granted');
  }
  if (s === 404) return new ProviderError('failed', 'not_found');
  return new ProviderError('failed', 'unavailable');
}

/**
 * One conditional GET: If-None-Match / If-Modified-Since from `v`; 304 → unchanged (GitHub does not count an
 * authorized 304 against the primary rate limit). `url` is either a path under the base or a stored absolute page URL
 * on the base's origin (a Link from the provider); any other origin is refused.
 */
export async function conditionalGet<T>(h: ProviderHttp, url: string, v: Validators, parse: (json: unknown) => T): Promise<Fetched<T>> {
  const target = url.startsWith('/') ? new URL(h.base.replace(/\/$/, '') + url) : new URL(url);
  // Security invariant: the installation's credential is sent only to the installation's own origin.
  if (target.origin !== new URL(h.base).origin) throw new ProviderError('failed', 'bad_response');
  const headers: Record<string, string> = { ...h.headers, authorization: h.authorization, accept: 'application/json' };
  if (v.etag) headers['if-none-match'] = v.etag;
  if (v.lastModified) headers['if-modified-since'] = v.lastModified;
  let res: Response;
  try {
    res = await fetch(target, { headers, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch {
    throw new ProviderError('failed', 'unavailable');
  }
  if (res.headers.get('x-ratelimit-remaining') === '0' && res.status < 400) h.exhausted = resetOf(res.headers, h.now) ?? h.now + 60_000;
  if (res.status === 304) {
    void res.body?.cancel();
    return { changed: false };
  }
  if (res.status < 200 || res.status > 299) throw await classify(res, h.now);
  const { text, over } = await readUpTo(res, MAX_BODY).catch(() => {
    throw new ProviderError('failed', 'unavailable');
  });
  if (over) throw new ProviderError('failed', 'bad_response');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ProviderError('failed', 'bad_response');
  }
  let body: T;
  try {
    body = parse(json);
  } catch {
    throw new ProviderError('failed', 'bad_response');
  }
  const validators: Validators = {};
  const etag = res.headers.get('etag');
  const lm = res.headers.get('last-modified');
  if (etag && etag.length <= 200) validators.etag = etag;
  if (lm && lm.length <= 100) validators.lastModified = lm;
  // A page URL is kept in the watch's state: one longer than any real provider writes is a broken answer.
  const next = nextLink(res.headers.get('link'));
  if (next !== undefined && next.length > MAX_PAGE_URL) throw new ProviderError('failed', 'bad_response');
  const date = Date.parse(res.headers.get('date') ?? '');
  return { changed: true, body, validators, ...(next ? { next } : {}), date: Number.isFinite(date) ? date : h.now };
}

/** Narrow readers for provider JSON: anything unexpected throws (→ bad_response). */
export const rd = {
  obj(v: unknown): Record<string, unknown> {
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('object expected');
    return v as Record<string, unknown>;
  },
  arr(v: unknown): unknown[] {
    if (!Array.isArray(v)) throw new Error('array expected');
    return v;
  },
  str(v: unknown, max = 200): string {
    if (typeof v !== 'string') throw new Error('string expected');
    return v.slice(0, max);
  },
  int(v: unknown): number {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new Error('integer expected');
    return v;
  },
  /**
   * A file path from a PR, as shown in a posted line. Security invariant: provider text reaches #channels only as
   * plain words: no `@` (a mention would start an agent's turn), no markup, no line breaks; at most 200 characters.
   */
  path(v: string): string {
    return v.slice(0, 400).replace(/\s+/g, ' ').replace(/[^A-Za-z0-9 _.\/()+#,-]/g, '').replace(/ +/g, ' ').trim().slice(0, 200) || 'a file';
  },
  /** A state word (review state, CI state) as shown in a posted line: lower-case letters and `_` only, or `unknown`. */
  word(v: unknown, max = 40): string {
    return (typeof v === 'string' ? v.slice(0, max).toLowerCase().replace(/[^a-z_]/g, '') : '') || 'unknown';
  },
  /** A commit sha as posted (its first 7 characters): hex only, else the answer is refused (a sha is never prose). */
  sha(v: unknown): string {
    if (typeof v !== 'string' || !/^[0-9a-f]{7,64}$/i.test(v)) throw new Error('commit sha expected');
    return v.toLowerCase();
  },
  login(v: unknown): string {
    const u = v && typeof v === 'object' ? (v as { login?: unknown }).login : undefined;
    return typeof u === 'string' ? u.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 64) || 'someone' : 'someone';
  },
};

/** Splits `owner/name` (already matched against REPO_PATTERN) into encoded path segments. */
export function repoPath(repo: string): string {
  const [o, r] = repo.split('/');
  // Security invariant: the credential is only ever sent under /repos/{owner}/{name} (no dot segment climbs out).
  if (!o || !r || o === '.' || o === '..' || r === '.' || r === '..') throw new ProviderError('failed', 'not_found');
  return `${encodeURIComponent(o!)}/${encodeURIComponent(r!)}`;
}
