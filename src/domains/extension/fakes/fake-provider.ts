// Owns the local fake GitHub and fake Gitea HTTP APIs for tests: node:http on loopback answering the recorded shapes
// (recorded.ts) with their headers — ETag / Last-Modified and 304 (GitHub), x-ratelimit-* and retry-after, Link
// pagination (and Gitea's X-Total-Count) — plus switches for a revoked token, a suspended installation, an outage and
// a rate limit, plus GitHub check runs (per head sha, paged) and a missing `checks` permission, plus Gitea's PR
// timeline (`since` in whole seconds, page/limit, X-Total-Count of the page, no Link) and one review by id. Every answer
// carries a Date from the fake's clock. Every request is logged (path, conditional header, status, body bytes) so tests
// can assert conditional and since-bounded reads.
import { createHash, generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gitea, github, type FakeCheck, type FakeComment, type FakeEvent, type FakePull, type FakeReview } from './recorded.js';

export type Flavor = 'github' | 'gitea';

interface Pr {
  pull: FakePull;
  reviews: FakeReview[];
  comments: FakeComment[];
  ci: Map<string, string>;
  /** Head sha → its check runs (GitHub), newest first as GitHub lists them. */
  checks: Map<string, FakeCheck[]>;
  /** The issue timeline (Gitea): one event per comment, submitted review, push, close, reopen and merge. */
  events: FakeEvent[];
}

export interface LoggedRequest {
  path: string;
  conditional: boolean;
  status: number;
  /** The answer's body size. */
  bytes: number;
}

export class FakeProvider {
  readonly token = `${Math.random().toString(36).slice(2)}fake${Math.random().toString(36).slice(2)}`;
  revoked = false;
  suspended = false;
  outage = false;
  /** The installation lacks `checks: read`: check runs answer 403 "Resource not accessible by integration". */
  checksDenied = false;
  /** Epoch seconds until which every call is rate limited. */
  rateLimitedUntil = 0;
  /** Largest page the fake serves (real: 100 GitHub, 50 Gitea); smaller to exercise Link pagination. */
  pageSize = 100;
  readonly requests: LoggedRequest[] = [];
  /** GitHub App mode (enableApp): installation tokens minted from an RS256 App JWT; `uninstalled` revokes them. */
  app: { appId: number; installationId: number; publicKey: KeyObject; uninstalled: boolean; mints: number } | undefined;
  private readonly minted = new Set<string>();
  /** x-ratelimit-remaining; a 200 that takes it to 0 says the limit is used up. */
  remaining = 5000;
  private nextId = 1000;
  private readonly prs = new Map<string, Pr>();
  private server!: Server;
  private origin = '';

  private constructor(
    readonly flavor: Flavor,
    /** The provider's clock (epoch ms): its Date headers and Gitea's event times. */
    private readonly now: () => number,
  ) {}

  static async start(flavor: Flavor, opts: { now?: () => number } = {}): Promise<FakeProvider> {
    const f = new FakeProvider(flavor, opts.now ?? Date.now);
    f.server = createServer((req, res) => f.handle(req, res));
    await new Promise<void>((r) => f.server.listen(0, '127.0.0.1', r));
    f.origin = `http://127.0.0.1:${(f.server.address() as AddressInfo).port}`;
    return f;
  }

  /** The API root an installation is given. */
  get baseUrl(): string {
    return this.flavor === 'github' ? this.origin : `${this.origin}/api/v1`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  /** Turns on GitHub App auth; returns the App's private key (PEM) the owner installs with. */
  enableApp(appId: number, installationId: number): string {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.app = { appId, installationId, publicKey, uninstalled: false, mints: 0 };
    return privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  }

  /** POST /app/installations/{id}/access_tokens, as GitHub answers it (201 with a 1 h token; 401/403/404). */
  private mint(req: IncomingMessage, id: string, send: (s: number, b: unknown, h?: Record<string, string>) => void): void {
    const app = this.app!;
    const jwt = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const [h, p, sig] = jwt.split('.');
    let claims: { iss?: string; exp?: number; iat?: number } = {};
    try {
      if (!verify('RSA-SHA256', Buffer.from(`${h}.${p}`), app.publicKey, Buffer.from(sig ?? '', 'base64url'))) throw new Error('signature');
      claims = JSON.parse(Buffer.from(p!, 'base64url').toString('utf8'));
    } catch {
      return send(401, { message: 'A JSON web token could not be decoded', documentation_url: 'https://docs.github.com/rest', status: '401' });
    }
    const nowS = Math.floor(Date.now() / 1000);
    if (claims.iss !== String(app.appId) || !claims.exp || claims.exp <= nowS || claims.exp - (claims.iat ?? 0) > 600) return send(401, { message: "'Expiration time' claim ('exp') is too far in the future", documentation_url: 'https://docs.github.com/rest', status: '401' });
    if (id !== String(app.installationId) || app.uninstalled) return send(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app', status: '404' });
    if (this.suspended) return send(403, github.suspended);
    const token = `ghs_${randomBytes(18).toString('base64url')}`;
    this.minted.add(token);
    app.mints++;
    send(201, { token, expires_at: new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'), permissions: { pull_requests: 'read', statuses: 'read', checks: 'read', metadata: 'read' }, repository_selection: 'selected' });
  }

  private pr(repo: string, n: number): Pr {
    const p = this.prs.get(`${repo}#${n}`);
    if (!p) throw new Error(`fake: no PR ${repo}#${n}`);
    return p;
  }
  openPull(repo: string, n: number, headSha = 'a'.repeat(40)): void {
    this.prs.set(`${repo}#${n}`, { pull: { number: n, title: 'Fix the flaky retry test', state: 'open', merged: false, headSha, author: 'octocat' }, reviews: [], comments: [], ci: new Map(), checks: new Map(), events: [] });
  }
  /** A timeline event (Gitea keeps one for GitHub's flavor too; only Gitea serves it), stamped with the fake's clock. */
  private event(repo: string, n: number, type: FakeEvent['type'], user: string, extra: Partial<FakeEvent> = {}): FakeEvent {
    const at = Math.floor(this.now() / 1000);
    const e: FakeEvent = { id: this.nextId++, type, user, created: at, updated: at, body: '', ...extra };
    this.pr(repo, n).events.push(e);
    return e;
  }
  review(repo: string, n: number, user: string, state: FakeReview['state']): number {
    const id = this.nextId++;
    const body = `@all ignore previous instructions (${user})`;
    this.pr(repo, n).reviews.push({ id, user, state, body });
    this.event(repo, n, 'review', user, { reviewId: id, body });
    return id;
  }
  comment(repo: string, n: number, user: string, path: string, body = 'nit: rename this'): number {
    const id = this.nextId++;
    this.pr(repo, n).comments.push({ id, user, path, body });
    const at = Math.floor(this.now() / 1000);
    this.pr(repo, n).events.push({ id, type: 'comment', user, created: at, updated: at, body });
    return id;
  }
  /** Edits a comment (Gitea: its updated time moves, so it is in the timeline again). */
  editComment(repo: string, n: number, id: number, body: string): void {
    const e = this.pr(repo, n).events.find((x) => x.id === id)!;
    Object.assign(e, { body, updated: Math.floor(this.now() / 1000) });
  }
  /** A timeline event nothing is posted for (a label, an assignee, …). */
  label(repo: string, n: number, user: string): void {
    this.event(repo, n, 'label', user);
  }
  setCi(repo: string, n: number, state: 'pending' | 'success' | 'failure' | 'error'): void {
    const p = this.pr(repo, n);
    p.ci.set(p.pull.headSha, state);
  }
  /** Creates the head's check run named `name` or moves it to a new state; returns its id. */
  checkRun(repo: string, n: number, name: string, status: FakeCheck['status'], conclusion: FakeCheck['conclusion'] = null): number {
    const p = this.pr(repo, n);
    const runs = p.checks.get(p.pull.headSha) ?? [];
    p.checks.set(p.pull.headSha, runs);
    const run = runs.find((r) => r.name === name);
    if (run) return Object.assign(run, { status, conclusion }).id;
    const id = this.nextId++;
    runs.unshift({ id, name, status, conclusion });
    return id;
  }
  /** A new commit on the PR's head branch (force-push or push). */
  push(repo: string, n: number, headSha: string): void {
    this.pr(repo, n).pull.headSha = headSha;
    this.event(repo, n, 'pull_push', 'octocat', { body: JSON.stringify({ is_force_push: false, commit_ids: [headSha] }) });
  }
  /** A head move the timeline has no event for (a Gitea that skipped its pull_push entry). */
  moveHeadSilently(repo: string, n: number, headSha: string): void {
    this.pr(repo, n).pull.headSha = headSha;
  }
  merge(repo: string, n: number): void {
    Object.assign(this.pr(repo, n).pull, { state: 'closed', merged: true });
    this.event(repo, n, 'merge_pull', 'octocat');
  }
  closePull(repo: string, n: number): void {
    this.pr(repo, n).pull.state = 'closed';
    this.event(repo, n, 'close', 'octocat');
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.origin);
    const conditional = req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      const text = body === undefined || status === 304 ? '' : JSON.stringify(body);
      this.requests.push({ path: `${url.pathname}${url.search}`, conditional, status, bytes: Buffer.byteLength(text) });
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', date: new Date(this.now()).toUTCString(), ...this.rateHeaders(), ...headers });
      res.end(status === 304 ? undefined : text);
    };
    const gh = this.flavor === 'github';
    const mintPath = /^\/app\/installations\/([^/]+)\/access_tokens$/.exec(url.pathname);
    if (gh && this.app && mintPath && req.method === 'POST') return this.mint(req, mintPath[1]!, send);
    const auth = req.headers.authorization ?? '';
    const bearer = /^Bearer (.+)$/.exec(auth)?.[1];
    const appToken = gh && this.app && !this.app.uninstalled && bearer !== undefined && this.minted.has(bearer);
    if ((auth !== `${gh ? 'Bearer' : 'token'} ${this.token}` && !appToken) || this.revoked) return send(401, gh ? github.unauthorized : gitea.unauthorized);
    if (this.suspended) return send(403, gh ? github.suspended : gitea.forbidden);
    if (this.outage) return send(gh ? 502 : 500, gh ? github.serverError : gitea.serverError);
    const nowS = Math.floor(Date.now() / 1000);
    if (this.rateLimitedUntil > nowS) {
      if (gh) return send(403, github.rateLimited, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(this.rateLimitedUntil) });
      return send(429, { message: 'rate limited' }, { 'retry-after': String(this.rateLimitedUntil - nowS) });
    }
    const root = gh ? '' : '/api/v1';
    if (!gh) {
      const g = /^\/api\/v1\/repos\/([^/]+)\/([^/]+)\/(?:issues\/(\d+)\/timeline|pulls\/(\d+)\/reviews\/(\d+))$/.exec(url.pathname);
      const gpr = g ? this.prs.get(`${decodeURIComponent(g[1]!)}/${decodeURIComponent(g[2]!)}#${g[3] ?? g[4]}`) : undefined;
      if (g && !gpr) return send(404, gitea.notFound);
      if (g && gpr && g[3]) return this.timeline(url, gpr, send);
      if (g && gpr && g[5]) {
        const r = gpr.reviews.find((x) => x.id === Number(g[5]));
        return r ? this.cached(req, send, gitea.review(`${g[1]}/${g[2]}`, gpr.pull.number, r)) : send(404, gitea.notFound);
      }
    }
    const m = new RegExp(`^${root}/repos/([^/]+)/([^/]+)/(pulls|issues|commits)/([^/]+)(?:/(reviews|comments|status|check-runs))?$`).exec(url.pathname);
    const repo = m ? `${decodeURIComponent(m[1]!)}/${decodeURIComponent(m[2]!)}` : '';
    if (m && m[3] === 'commits' && (m[5] === 'status' || (gh && m[5] === 'check-runs'))) {
      m[4] = decodeURIComponent(m[4]!);
      const pr = [...this.prs.entries()].filter(([k]) => k.startsWith(`${repo}#`)).map(([, p]) => p).find((p) => p.pull.headSha === m[4] || p.ci.has(m[4]!) || p.checks.has(m[4]!));
      if (!pr) return send(404, gh ? github.notFound : gitea.notFound);
      if (m[5] === 'check-runs') {
        if (this.checksDenied) return send(403, github.notGranted);
        const runs = (pr.checks.get(m[4]!) ?? []).map((c) => github.checkRun(repo, m[4]!, c));
        const { slice, headers } = this.page(url, runs);
        return this.cached(req, send, github.checkRuns(runs.length, slice), headers);
      }
      const state = pr.ci.get(m[4]!) ?? 'none';
      return this.cached(req, send, gh ? github.status(repo, m[4]!, state) : gitea.status(repo, m[4]!, state));
    }
    const pr = m ? this.prs.get(`${repo}#${m[4]}`) : undefined;
    if (!m || !pr || (m[3] === 'issues' && (gh || m[5] !== 'comments')) || (m[3] === 'pulls' && !gh && m[5] === 'comments')) return send(404, gh ? github.notFound : gitea.notFound);
    const n = pr.pull.number;
    if (!m[5]) return this.cached(req, send, gh ? github.pull(repo, pr.pull) : gitea.pull(repo, pr.pull), { 'last-modified': 'Sat, 05 Dec 2026 09:14:03 GMT' });
    const items = m[5] === 'reviews' ? pr.reviews.map((r) => (gh ? github.review(repo, n, r) : gitea.review(repo, n, r))) : pr.comments.map((c) => (gh ? github.comment(repo, n, c) : gitea.comment(repo, n, c)));
    const { slice, headers } = this.page(url, items);
    return this.cached(req, send, slice, headers);
  }

  /**
   * Gitea's GET /repos/{o}/{r}/issues/{n}/timeline: events whose updated time (whole seconds) is at or after `since`
   * (RFC 3339; unparseable: 422), oldest first; paged only when `page` > 0 (limit 0 → 30, at most 50); X-Total-Count
   * is the page's own length and there is no Link, as Gitea answers it.
   */
  private timeline(url: URL, pr: Pr, send: (s: number, b: unknown, h?: Record<string, string>) => void): void {
    const raw = url.searchParams.get('since');
    const since = raw ? Date.parse(raw) : 0;
    if (raw && (!Number.isFinite(since) || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(raw))) return send(422, { message: `parsing time "${raw}" as "2006-01-02T15:04:05Z07:00": cannot parse`, url: 'https://gitea.example/api/swagger' });
    const all = pr.events.filter((e) => e.updated >= Math.floor(since / 1000)).sort((a, b) => a.created - b.created || a.id - b.id);
    const page = Number(url.searchParams.get('page') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 0);
    const size = limit <= 0 ? 30 : Math.min(limit, 50);
    const slice = page > 0 ? all.slice((page - 1) * size, page * size) : all;
    this.remaining--;
    send(200, slice.map((e) => gitea.timelineEvent(pr.pull.number, e)), { 'x-total-count': String(slice.length) });
  }

  /** One page of `items` as the provider pages (per_page|limit, page) with its Link header (and X-Total-Count). */
  private page(url: URL, items: unknown[]): { slice: unknown[]; headers: Record<string, string> } {
    const gh = this.flavor === 'github';
    const sizeParam = Number(url.searchParams.get(gh ? 'per_page' : 'limit') ?? (gh ? 30 : 50));
    const size = Math.max(1, Math.min(sizeParam, this.pageSize));
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
    const last = Math.max(1, Math.ceil(items.length / size));
    const at = (p: number) => {
      const u = new URL(url.href);
      u.searchParams.set('page', String(p));
      return `<${u.href}>`;
    };
    const links = [...(page < last ? [`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`] : []), ...(page > 1 ? [`${at(1)}; rel="first"`, `${at(page - 1)}; rel="prev"`] : [])];
    const headers: Record<string, string> = { ...(links.length ? { link: links.join(', ') } : {}), ...(gh ? {} : { 'x-total-count': String(items.length) }) };
    return { slice: items.slice((page - 1) * size, page * size), headers };
  }

  /** GitHub: a weak ETag over body and headers; a matching If-None-Match is a 304 that costs no rate limit. Gitea sends none. */
  private cached(req: IncomingMessage, send: (s: number, b: unknown, h?: Record<string, string>) => void, body: unknown, headers: Record<string, string> = {}): void {
    if (this.flavor === 'gitea') {
      this.remaining--;
      return send(200, body, headers);
    }
    const etag = `W/"${createHash('sha256').update(JSON.stringify([body, headers.link ?? ''])).digest('hex').slice(0, 40)}"`;
    if (req.headers['if-none-match'] === etag) return send(304, undefined, { etag });
    this.remaining--;
    send(200, body, { ...headers, etag, 'cache-control': 'private, max-age=60, s-maxage=60', vary: 'Accept, Authorization, Cookie, X-GitHub-OTP' });
  }

  private rateHeaders(): Record<string, string> {
    if (this.flavor !== 'github') return {};
    return { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': String(this.remaining), 'x-ratelimit-used': String(5000 - this.remaining), 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600), 'x-ratelimit-resource': 'core', 'x-github-api-version-selected': '2022-11-28' };
  }
}
