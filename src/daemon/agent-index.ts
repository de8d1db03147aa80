// Owns the profile index: local agent configurations of one owning profile, its collection revision, `a2` cursor pages and the safe public projection.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../shared/errors.js';
import type { AgentProfile, ProfilePatch, ProfileStore } from '../home/profiles.js';

export const AGENT_PAGE_DEFAULT = 20;
export const AGENT_PAGE_MAX = 100;
/** The filesystem-policy count is bounded so a huge policy is not a size oracle. */
export const POLICY_COUNT_MAX = 1000;
const HEADER_NAMES_MAX = 32;

import type { AgentDirectory, AgentFilters, AgentView, LiveState } from '../domains/agent/contract.js';

export type { AgentFilters, AgentView, LiveState };

/** Scheme, host and port only; anything that is not an http(s) URL is not projected at all. */
export function safeBaseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  // Security invariant: userinfo, path (`;jsessionid=…`), query and fragment may hold credentials; they never leave the daemon.
  return `${u.protocol}//${u.host}`;
}

export function normalizeHeaderNames(headers: Record<string, string> | undefined): string[] {
  return [...new Set(Object.keys(headers ?? {}).map((n) => n.trim().toLowerCase()))].sort().slice(0, HEADER_NAMES_MAX);
}

export function projectAgent(p: AgentProfile, live: LiveState): AgentView {
  const out: AgentView = {
    agentId: p.id,
    name: p.name,
    runtime: p.runtime,
    enabled: p.enabled !== false,
    apiKeyConfigured: typeof p.apiKey === 'string' && p.apiKey.length > 0,
    headerNames: normalizeHeaderNames(p.headers),
    filesystemPolicy: { allowedPathCount: Math.min(p.allowedPaths?.length ?? 0, POLICY_COUNT_MAX) },
    session: live,
  };
  if (p.model !== undefined) out.model = p.model;
  const base = safeBaseUrl(p.baseUrl);
  if (base !== undefined) out.baseUrl = base;
  return out;
}

/** Lower-cased, trimmed, whitespace collapsed; an empty query is no query. */
export function normalizeFilters(f: AgentFilters | undefined): AgentFilters {
  const out: AgentFilters = {};
  if (f?.runtime !== undefined) out.runtime = f.runtime;
  if (f?.enabled !== undefined) out.enabled = f.enabled;
  const q = f?.query?.trim().replace(/\s+/g, ' ').toLowerCase();
  if (q) out.query = q;
  return out;
}

function matches(p: AgentProfile, f: AgentFilters): boolean {
  if (f.runtime !== undefined && p.runtime !== f.runtime) return false;
  if (f.enabled !== undefined && (p.enabled !== false) !== f.enabled) return false;
  if (f.query !== undefined && !p.name.toLowerCase().includes(f.query) && !p.id.toLowerCase().includes(f.query)) return false;
  return true;
}

interface CursorBody {
  /** A digest of the normalized filters in canonical key order (a fixed size, so any query keeps the cursor within its bound). */
  f: string;
  /** The owning-profile collection revision. */
  r: number;
  /** The anchor: the last Agent ID of the previous page. */
  a: string;
  /** The owning profile the collection belongs to. */
  o: string;
}

export interface IndexDeps {
  store: ProfileStore;
  /** What is live for one agent (runtime process, running turn). */
  live: (agentId: string) => LiveState;
  /** Cursor signing key; random per daemon by default (a restart invalidates cursors, loudly). */
  cursorKey?: Buffer;
  /** The owning profile (the Human member whose agents these are); bound into every cursor. */
  owner?: string;
}

export class AgentIndex implements AgentDirectory {
  private rev = 1;
  private readonly key: Buffer;
  /** Configurations copied by page reads (tests count limit + 1). */
  copies = 0;

  constructor(private readonly deps: IndexDeps) {
    this.key = deps.cursorKey ?? randomBytes(32);
  }

  get revision(): number {
    return this.rev;
  }

  private bump(): void {
    this.rev += 1;
  }

  add(p: AgentProfile): void {
    this.deps.store.save(p);
    this.bump();
  }

  update(id: string, patch: ProfilePatch): AgentProfile {
    const cur = this.deps.store.get(id);
    if (!cur) throw new AppError('not_found', 'no such agent');
    const next: AgentProfile = { ...cur };
    for (const [k, v] of Object.entries(patch)) if (v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
    this.deps.store.save(next);
    this.bump();
    return next;
  }

  remove(id: string): boolean {
    const gone = this.deps.store.remove(id);
    if (gone) this.bump();
    return gone;
  }

  /** Re-reads home/profiles; returns whether a file changed, appeared or vanished. A reload always bumps the revision (spec). */
  reload(): boolean {
    const changed = this.deps.store.reload();
    this.bump();
    return changed;
  }

  /** Drops profiles whose server member is gone; returns their ids. */
  cleanupOrphans(memberExists: (agentId: string) => boolean): string[] {
    const gone = this.deps.store.list().filter((p) => !memberExists(p.id)).map((p) => p.id);
    for (const id of gone) this.deps.store.remove(id);
    if (gone.length > 0) this.bump();
    return gone;
  }

  get(agentId: string): AgentView {
    const p = this.deps.store.get(agentId);
    if (!p) throw new AppError('not_found', 'no such agent', { hint: 'run agentteam exec agent list' });
    return projectAgent(p, this.deps.live(p.id));
  }

  page(input: { limit?: number; cursor?: string; filters?: AgentFilters }): { agents: AgentView[]; hasMore: boolean; nextCursor?: string } {
    const limit = Math.min(Math.max(input.limit ?? AGENT_PAGE_DEFAULT, 1), AGENT_PAGE_MAX);
    const f = normalizeFilters(input.filters);
    let after: string | undefined;
    if (input.cursor !== undefined) after = this.openCursor(input.cursor, f);
    const ids = this.deps.store.ids();
    // Keyset by stable Agent ID: copy only limit + 1 matching configurations.
    const picked: AgentProfile[] = [];
    for (const id of ids) {
      if (after !== undefined && id <= after) continue;
      const p = this.deps.store.get(id)!;
      if (!matches(p, f)) continue;
      this.copies += 1;
      picked.push(structuredClone(p));
      if (picked.length > limit) break;
    }
    const hasMore = picked.length > limit;
    const rows = picked.slice(0, limit);
    // Only the page's sessions are resolved.
    const agents = rows.map((p) => projectAgent(p, this.deps.live(p.id)));
    if (!hasMore) return { agents, hasMore: false };
    return { agents, hasMore: true, nextCursor: this.sealCursor({ f: filterDigest(f), r: this.rev, a: rows[rows.length - 1]!.id, o: this.deps.owner ?? '' }) };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }

  private sealCursor(c: CursorBody): string {
    const body = Buffer.from(JSON.stringify({ f: c.f, r: c.r, a: c.a, o: c.o })).toString('base64url');
    return `a2.${body}.${this.sign(body)}`;
  }

  /** Returns the anchor; any problem is a typed validation failure, never page one. */
  private openCursor(token: string, f: AgentFilters): string {
    const bad = (why: string) => new AppError('validation_failed', `invalid cursor: ${why}`, { hint: 'start again without a cursor' });
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== 'a2' || !parts[1] || !parts[2]) throw bad('malformed');
    const want = Buffer.from(this.sign(parts[1]));
    const got = Buffer.from(parts[2]);
    if (want.length !== got.length || !timingSafeEqual(want, got)) throw bad('malformed');
    let c: CursorBody;
    try {
      c = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as CursorBody;
    } catch {
      throw bad('malformed');
    }
    if (typeof c !== 'object' || c === null || typeof c.a !== 'string' || typeof c.r !== 'number' || typeof c.f !== 'string') throw bad('malformed');
    if (c.o !== (this.deps.owner ?? '')) throw bad('it belongs to another owner');
    if (c.f !== filterDigest(f)) throw bad('the filters differ from the first page');
    if (c.r !== this.rev) throw bad('the agent list changed since the first page');
    if (!this.deps.store.get(c.a)) throw bad('the anchor agent is gone');
    return c.a;
  }
}

function filterDigest(f: AgentFilters): string {
  return createHash('sha256').update(JSON.stringify(canonical(f))).digest('base64url').slice(0, 22);
}

function canonical(f: AgentFilters): AgentFilters {
  const out: AgentFilters = {};
  if (f.runtime !== undefined) out.runtime = f.runtime;
  if (f.enabled !== undefined) out.enabled = f.enabled;
  if (f.query !== undefined) out.query = f.query;
  return out;
}
