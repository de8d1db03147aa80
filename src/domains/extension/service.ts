// Owns App-hosted Extensions on the server: installations (owner), the snapshot an agent's runtime pins, and the
// forwarded calls (`/runtime/ext`): pins checked against the current catalog, input re-validated, then the action —
// watch-pr (baseline poll, then stored), list-watches (keyset createdAt DESC, id DESC), unwatch.
import type { IncomingMessage } from 'node:http';
import { Value } from '@sinclair/typebox/value';
import { AppError } from '../../shared/errors.js';
import { newCompactId } from '../../shared/ids.js';
import { isOwner, iso, requireAdmin, requireOwner, type Actor, type DomainDeps } from '../../server/context.js';
import { listPage, normalizeLimit, type Ordering } from '../../server/pagination.js';
import { authorizeTarget } from '../channel/authorize.js';
import { parseTarget } from '../../shared/target.js';
import { POLL_DEFAULT_MS, STOPPED_KEPT, WATCH_STARTS_PER_HOUR, WATCHES_PER_MEMBER_MAX, type CallOutcome, type ExtensionSnapshot, type InstallationDto } from './contract.js';
import { DEFINITIONS, definitionDigest, definitionJson, EXTENSION_NAMES, extensionCatalogVersion, type ExtensionName } from './definitions.js';
import { providerFailure, staleCatalog } from './failures.js';
import { giteaClient } from './gitea.js';
import { githubClient } from './github.js';
import { emptyState, pollOnce, type WatchState } from './poll.js';
import { ProviderError, type ProviderClient } from './provider.js';
import { receiveWebhook, WEBHOOKS_IN_FLIGHT } from './webhook.js';
import { appJwt, credentialOf, dropMinted } from './app-auth.js';
import { installation, INST_COLS, type InstallationRow } from './installations.js';

export { installation, type InstallationRow };

export interface WatchRow {
  id: string;
  extension: ExtensionName;
  repo: string;
  number: number;
  target: string;
  created_by: string;
  status: 'active' | 'stopped';
  error: string | null;
  state: string;
  next_poll_at: number;
  failures: number;
  created_at: number;
  updated_at: number;
}
export const WATCH_COLS = 'id, extension, repo, number, target, created_by, status, error, state, next_poll_at, failures, created_at, updated_at';
const WATCH_ORDER: Ordering = {
  collection: 'extension_watches',
  keys: [
    { column: 'created_at', field: 'created_at', dir: 'DESC', type: 'timestamp' },
    { column: 'id', field: 'id', dir: 'DESC', type: 'text' },
  ],
};

/** Makes the provider client of one installation with the credential of this very call. */
export type ProviderFactory = (i: InstallationRow, now: number, credential: string) => ProviderClient;
export const defaultProviders: ProviderFactory = (i, now, credential) => (i.name === 'github' ? githubClient : giteaClient)(i.base_url, credential, now);

/** The provider client for one call: the installation's stored token, or a GitHub App installation token (app-auth.ts). */
export async function providerFor(deps: DomainDeps, providers: ProviderFactory, inst: InstallationRow, now: number): Promise<ProviderClient> {
  return providers(inst, now, await credentialOf(deps, inst, now));
}

const isLoopback = (host: string) => host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

/** An installation's API root: https (http only on loopback), no userinfo, query or fragment. */
export function checkBaseUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new AppError('validation_failed', 'baseUrl must be an http(s) URL');
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && isLoopback(u.hostname))) throw new AppError('validation_failed', 'baseUrl must be https (plain http only on loopback)');
  if (u.username || u.password || u.search || u.hash) throw new AppError('validation_failed', 'baseUrl must have no userinfo, query or fragment');
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

export const watchDto = (r: WatchRow) => ({
  id: r.id,
  repo: r.repo,
  number: Number(r.number),
  target: r.target,
  ...(r.status === 'stopped' ? { status: 'stopped' as const } : {}),
  ...(r.error === 'provider_unauthorized' || r.error === 'provider_failed' ? { error: r.error } : {}),
});

/** Bound: a member's stopped watches are kept only as the newest STOPPED_KEPT (called where watches start or stop). */
async function pruneStopped(sql: Pick<DomainDeps['store'], 'run'>, memberId: string): Promise<void> {
  await sql.run(`DELETE FROM extension_watches WHERE created_by = ? AND status = 'stopped' AND id NOT IN (SELECT id FROM extension_watches WHERE created_by = ? AND status = 'stopped' ORDER BY created_at DESC, id DESC LIMIT ${STOPPED_KEPT})`, [memberId, memberId]);
}

export class Extensions {
  /** Webhook deliveries being read now (unauthenticated until verified, so bounded). */
  private webhooks = 0;

  constructor(
    private readonly deps: DomainDeps,
    private readonly providers: ProviderFactory = defaultProviders,
  ) {}

  /** Installs (or replaces) an App: owner only. Its credential is stored server-side and never returned. */
  async install(actor: Actor, body: { name: ExtensionName; baseUrl: string; token?: string; appId?: number; installationId?: number; privateKey?: string; pollIntervalMs?: number; webhookSecret?: string }): Promise<InstallationDto> {
    requireOwner(actor, 'install an App');
    const base = checkBaseUrl(body.baseUrl);
    const app = body.appId !== undefined || body.installationId !== undefined || body.privateKey !== undefined;
    if (app && (body.token !== undefined || body.appId === undefined || body.installationId === undefined || body.privateKey === undefined)) throw new AppError('validation_failed', 'give either token, or appId, installationId and privateKey');
    if (!app && body.token === undefined) throw new AppError('validation_failed', 'give a token, or appId, installationId and privateKey');
    if (app && body.name !== 'github') throw new AppError('validation_failed', 'App keys are for github; gitea takes a token');
    if (app) {
      try {
        appJwt(body.appId!, body.privateKey!, this.deps.clock.now());
      } catch {
        throw new AppError('validation_failed', "privateKey must be the GitHub App's PEM private key");
      }
    }
    const now = this.deps.clock.now();
    const poll = body.pollIntervalMs ?? POLL_DEFAULT_MS;
    await this.deps.store.tx(async (sql) => {
      const had = await installation(sql, body.name);
      const secret = body.webhookSecret ?? null;
      const cred = [body.token ?? '', body.appId ?? null, body.installationId ?? null, body.privateKey ?? null];
      if (had) await sql.run("UPDATE extension_installations SET base_url = ?, token = ?, app_id = ?, installation_id = ?, private_key = ?, minted_token = NULL, minted_until = NULL, poll_interval_ms = ?, webhook_secret = ?, status = 'active', updated_at = ? WHERE name = ?", [base, ...cred, poll, secret, now, body.name]);
      else await sql.run("INSERT INTO extension_installations (name, base_url, token, app_id, installation_id, private_key, poll_interval_ms, webhook_secret, status, installed_by, installed_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?)", [body.name, base, ...cred, poll, secret, actor.id, now, now]);
      // A new credential gets another chance at watches its predecessor could not serve.
      await sql.run("UPDATE extension_watches SET error = NULL, failures = 0, next_poll_at = ? WHERE extension = ? AND status = 'active'", [now, body.name]);
    });
    return (await this.installations(actor)).find((i) => i.name === body.name)!;
  }

  async installations(actor: Actor): Promise<InstallationDto[]> {
    requireAdmin(actor, 'list App installations');
    const rows = await this.deps.store.all<InstallationRow>(`SELECT ${INST_COLS} FROM extension_installations ORDER BY name`);
    return rows.map((r) => ({ name: r.name, baseUrl: new URL(r.base_url).origin, status: r.status, auth: r.app_id === null ? ('token' as const) : ('app' as const), pollIntervalMs: Number(r.poll_interval_ms), webhook: r.webhook_secret ? `/v1/extensions/${r.name}/webhook` : null, installedAt: iso(Number(r.installed_at)) }));
  }

  /** Suspends or resumes an installation (owner only); a suspended one refuses every call and poll. */
  async setStatus(actor: Actor, { name, status }: { name: string; status: 'active' | 'suspended' }): Promise<InstallationDto> {
    requireOwner(actor, 'suspend or resume an App');
    const n = await this.deps.store.run('UPDATE extension_installations SET status = ?, updated_at = ? WHERE name = ?', [status, this.deps.clock.now(), name]);
    if (n !== 1) throw new AppError('not_found', `App ${name} is not installed`);
    return (await this.installations(actor)).find((i) => i.name === name)!;
  }

  /** A provider webhook delivery (signature-verified, deduplicated by delivery id): the PR's watches are polled now. */
  async webhook(name: string, req: IncomingMessage): Promise<{ accepted: boolean; watches: number }> {
    if (this.webhooks >= WEBHOOKS_IN_FLIGHT) throw new AppError('admission_rejected', 'too many webhook deliveries at once');
    this.webhooks++;
    try {
      return await receiveWebhook(this.deps, name, req);
    } finally {
      this.webhooks--;
    }
  }

  /** The definitions installed in this workspace (every member may use them), with digests and the catalog version. */
  async snapshot(_actor: Actor): Promise<ExtensionSnapshot> {
    const names = (await this.deps.store.all<{ name: string }>('SELECT name FROM extension_installations ORDER BY name')).map((r) => r.name);
    const definitions = names.filter((n): n is ExtensionName => (EXTENSION_NAMES as readonly string[]).includes(n)).map((name) => {
      const definition = definitionJson(DEFINITIONS[name]);
      return { name, digest: definitionDigest(definition), definition };
    });
    return { catalogVersion: extensionCatalogVersion(definitions), definitions };
  }

  /** One forwarded Extension call. Provider and catalog failures come back typed (CallOutcome); others throw. */
  async call(actor: Actor, body: { extension: ExtensionName; action: string; definitionDigest: string; catalogVersion: string; input: unknown }): Promise<CallOutcome> {
    const name = body.extension;
    // Security invariant: the App's authorization is server-side and read afresh on every call (never cached).
    const inst = await installation(this.deps.store, name);
    if (!inst) return providerFailure(name, { kind: 'unauthorized', reason: 'not_installed' });
    const snap = await this.snapshot(actor);
    const pinned = snap.definitions.find((d) => d.name === name);
    if (!pinned || pinned.digest !== body.definitionDigest || snap.catalogVersion !== body.catalogVersion) return staleCatalog(name);
    if (inst.status !== 'active') return providerFailure(name, { kind: 'unauthorized', reason: 'suspended' });
    const action = DEFINITIONS[name].actions.find((a) => a.action === body.action);
    if (!action) throw new AppError('not_found', `unknown action: ${name} ${body.action}`.slice(0, 120));
    if (!Value.Check(action.input, body.input)) throw new AppError('validation_failed', `input does not match ${name} ${body.action}`, { hint: `run agentteam exec ${name} ${body.action} --input-schema` });
    const input = body.input as Record<string, unknown>;
    try {
      if (body.action === 'watch-pr') return { outcome: 'ok', data: { watch: await this.watch(actor, inst, input as { repo: string; number: number; target: string }) } };
      if (body.action === 'list-watches') return { outcome: 'ok', data: await this.list(actor, name, input as { limit?: number; cursor?: string }) };
      return { outcome: 'ok', data: await this.unwatch(actor, name, String(input.watchId)) };
    } catch (e) {
      if (!(e instanceof ProviderError)) throw e;
      if (e.reason === 'revoked') await dropMinted(this.deps, inst);
      return providerFailure(name, e, `pull request ${String(input.repo)}#${String(input.number)}`);
    }
  }

  private async watch(actor: Actor, inst: InstallationRow, input: { repo: string; number: number; target: string }): Promise<ReturnType<typeof watchDto>> {
    const target = await authorizeTarget(this.deps.store, actor, parseTarget(input.target));
    const existing = await this.deps.store.get<WatchRow>(`SELECT ${WATCH_COLS} FROM extension_watches WHERE extension = ? AND repo = ? AND number = ? AND target = ? AND created_by = ? AND status = 'active'`, [inst.name, input.repo, input.number, target, actor.id]);
    if (existing) return watchDto(existing);
    const active = await this.deps.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM extension_watches WHERE created_by = ? AND status = 'active'", [actor.id]);
    if (Number(active?.n ?? 0) >= WATCHES_PER_MEMBER_MAX) throw new AppError('conflict', `you already watch ${WATCHES_PER_MEMBER_MAX} pull requests (the limit); unwatch one first`);
    // Bound: watch/unwatch churn costs the installation's rate limit (a baseline poll each) and rows.
    const started = await this.deps.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM extension_watches WHERE created_by = ? AND created_at > ?', [actor.id, this.deps.clock.now() - 3_600_000]);
    if (Number(started?.n ?? 0) >= WATCH_STARTS_PER_HOUR) throw new AppError('conflict', `you started ${WATCH_STARTS_PER_HOUR} watches in the last hour (the limit); try again later`);
    // The baseline: the PR must exist and be open; only what changes after this call is posted.
    const first = await pollOnce(await providerFor(this.deps, this.providers, inst, this.deps.clock.now()), input.repo, input.number, emptyState(), true);
    if (first.done) throw new AppError('validation_failed', `${input.repo}#${input.number} is already ${first.state.pr}; nothing to watch`);
    const now = this.deps.clock.now();
    const id = newCompactId('wat');
    return this.deps.store.tx(async (sql) => {
      // Checked again in the inserting transaction: two identical calls racing still make one watch.
      const raced = await sql.get<WatchRow>(`SELECT ${WATCH_COLS} FROM extension_watches WHERE extension = ? AND repo = ? AND number = ? AND target = ? AND created_by = ? AND status = 'active'`, [inst.name, input.repo, input.number, target, actor.id]);
      if (raced) return watchDto(raced);
      await sql.run(`INSERT INTO extension_watches (${WATCH_COLS}) VALUES (?, ?, ?, ?, ?, ?, 'active', NULL, ?, ?, 0, ?, ?)`, [id, inst.name, input.repo, input.number, target, actor.id, JSON.stringify(first.state), now + Number(inst.poll_interval_ms), now, now]);
      await pruneStopped(sql, actor.id);
      return { id, repo: input.repo, number: input.number, target };
    });
  }

  private async list(actor: Actor, name: string, input: { limit?: number; cursor?: string }) {
    normalizeLimit(input.limit);
    const q = { ordering: WATCH_ORDER, columns: WATCH_COLS, from: 'extension_watches', where: 'created_by = ? AND extension = ?', params: [actor.id, name], filter: { viewer: actor.id, extension: name }, limit: input.limit, cursor: input.cursor };
    return this.deps.store.tx((sql) => listPage(sql, this.deps.cursors, 'watches', q, (rows: WatchRow[]) => rows.map(watchDto)));
  }

  private async unwatch(actor: Actor, name: string, watchId: string) {
    const n = await this.deps.store.tx(async (sql) => {
      const stopped = await sql.run("UPDATE extension_watches SET status = 'stopped', updated_at = ? WHERE id = ? AND extension = ? AND (created_by = ? OR ? = 1)", [this.deps.clock.now(), watchId, name, actor.id, isOwner(actor) ? 1 : 0]);
      await pruneStopped(sql, actor.id);
      return stopped;
    });
    if (n !== 1) throw new AppError('not_found', `watch ${watchId} not found`);
    return { watchId, stopped: true as const };
  }
}

export type { WatchState };
