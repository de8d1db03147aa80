// Owns the server's request pipeline: route → auth (no body read) → key check → body cap → strict JSON → schema → idempotency → domain → envelope.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, errorBody } from '../../shared/errors.js';
import { constantTimeEqual, keyedHash } from '../../shared/ids.js';
import type { Logger } from '../../shared/log.js';
import { decodeJson, readBody } from '../../wire/http/body.js';
import { bearerToken, isJsonContentType, loopbackRequest, sendRaw } from '../../wire/http/guard.js';
import { Router } from '../../wire/http/router.js';
import { ID_RE } from '../../shared/ids.js';
import { accountsOf, type ServerDomain } from '../domain.js';
import { SERVER_VERSION, type ServerDomains } from '../app.js';
import type { Actor } from '../context.js';
import { idempotencyKeyFrom, receiptKey, requestHash } from '../idempotency.js';
import { forwardedHttps, hostAllowed } from './host-allow.js';
import { snakeCase, STREAMED, type DomainRoute } from './route.js';
import { aliasesOf, applyAliases, BodyValidator } from './schemas.js';

/** True when the raw request path has a `.` or `..` segment, literal or percent-encoded. */
export function hasDotSegment(rawUrl: string): boolean {
  // Without a `.` or a `%` anywhere there is no dot segment, literal or encoded (the common case, checked without splitting).
  if (!rawUrl.includes('.') && !rawUrl.includes('%')) return false;
  const path = rawUrl.split(/[?#]/, 1)[0]!;
  return path.split('/').some((p) => /^(\.|%2e){1,2}$/i.test(p));
}

/** A domain route mounted with its domain's service key and its derived aliases. */
interface Mounted extends DomainRoute {
  key: string;
  bodyAliases: Readonly<Record<string, string>>;
  queryAliases: Readonly<Record<string, string>>;
}

/** Every given domain's routes, in the given order. */
export function mountedRoutes(domains: readonly ServerDomain[]): Mounted[] {
  return domains.flatMap((d) =>
    d.routes.map((r) => ({
      ...r,
      key: d.key,
      bodyAliases: aliasesOf(r.body),
      queryAliases: Object.fromEntries((r.query ?? []).flatMap((q) => (snakeCase(q) !== q ? [[snakeCase(q), q]] : []))),
    })),
  );
}

export interface HandlerOptions {
  domains: ServerDomains;
  /** The mounted domains (the composition root's list): their routes and the accounts owner. */
  mounted: readonly ServerDomain[];
  adminToken: string;
  logger: Logger;
  /** When the server listens on loopback, refuse requests whose Host/Origin is not loopback (DNS rebinding). */
  loopbackOnly?: boolean;
  /** Host names answered besides loopback (see host-allow.ts); with any, Host must be loopback or one of them. */
  allowedHosts?: ReadonlySet<string>;
  /** Requests admitted at once; more are 409 admission_rejected before their body is read. Default 2048. */
  maxInFlight?: number;
  /** Checks the database (one trivial query); rejects when it is unreachable. */
  checkDatabase?: () => Promise<void>;
  /** Plain http off loopback behind a TLS proxy: requests from other machines need X-Forwarded-Proto: https. */
  requireForwardedHttps?: boolean;
}

export const SERVER_MAX_IN_FLIGHT = 2048;
/** Routes that carry no credential and nothing secret (served over plain http behind a TLS proxy too). */
const PUBLIC_PATHS = new Set(['/v1/server', '/v1/health']);

type Reply = { status: number; body: string };

const ok = (data: unknown): Reply => ({ status: 200, body: JSON.stringify({ ok: true, data }) });
const fail = (e: AppError): Reply => ({ status: e.status, body: JSON.stringify({ ok: false, error: errorBody(e) }) });
// Security invariant: one generic answer for a missing, unknown or wrong credential; nothing about why.
const FORBIDDEN = () => new AppError('denied', 'forbidden');

function queryOf(url: URL, allowed: readonly string[] | undefined, aliases: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k0, v] of url.searchParams) {
    const k = Object.prototype.hasOwnProperty.call(aliases, k0) ? aliases[k0]! : k0;
    if (!allowed?.includes(k)) throw new AppError('validation_failed', `unknown query parameter ${JSON.stringify(k0)}`);
    if (Object.prototype.hasOwnProperty.call(out, k)) throw new AppError('invalid_input', `query parameter ${k} given more than once`);
    out[k] = v;
  }
  return out;
}

export function createRequestHandler(opts: HandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { domains, logger } = opts;
  const validator = new BodyValidator();
  const router = new Router();
  const adminKey = randomBytes(32);
  const adminHash = keyedHash(adminKey, opts.adminToken);
  // Security invariant: the admin token is compared as a keyed hash in constant time and only unlocks bootstrap.
  const isAdmin = (t: string | undefined) => t !== undefined && constantTimeEqual(keyedHash(adminKey, t), adminHash);

  const info = async (): Promise<Reply> => ok({ serverId: domains.meta.serverId, workspaceId: domains.meta.workspaceId, version: SERVER_VERSION });

  const readJson = async (req: IncomingMessage, route: Pick<Mounted, 'maxBody' | 'bodyAliases'>): Promise<unknown> => {
    if (!isJsonContentType(req)) throw new AppError('invalid_input', 'request body must be application/json');
    const buf = await readBody(req, route.maxBody ? { maxBytes: route.maxBody } : {});
    return applyAliases(decodeJson(buf), route.bodyAliases);
  };
  const accounts = accountsOf(opts.mounted);
  const members = (d: ServerDomains) => accounts.of(d.services);

  const bootstrap = async (req: IncomingMessage): Promise<Reply> => {
    if (!isAdmin(bearerToken(req))) throw FORBIDDEN();
    const body = validator.check(accounts.bootstrapBody, await readJson(req, { bodyAliases: aliasesOf(accounts.bootstrapBody) }));
    return ok(await members(domains).bootstrap(body));
  };

  // Security invariant: the invite code is the only credential here; it is single-use, expiring and never stored in clear.
  const join = async (req: IncomingMessage): Promise<Reply> => {
    const body = validator.check(accounts.joinBody, await readJson(req, { bodyAliases: {} }));
    return ok(await members(domains).join(body));
  };

  const run = async (route: Mounted, req: IncomingMessage, res: ServerResponse, url: URL, params: Record<string, string>): Promise<Reply | null> => {
    if (route.webhook) {
      for (const [name, v] of Object.entries(params)) if (!(route.paramPatterns?.[name] ?? ID_RE).test(v)) throw new AppError('not_found', `${name} not found`);
      // Security invariant: a webhook carries no member credential; its handler verifies the provider's signature first.
      return ok(await route.webhook({ params, req }, domains.services[route.key]));
    }
    const token = bearerToken(req);
    const actor: Actor | undefined = token ? await members(domains).authenticate(token) : undefined;
    if (!actor) throw FORBIDDEN();
    // Security invariant: every path parameter matches its id grammar, so `.`/`..` or other dot segments never reach a domain.
    for (const [name, v] of Object.entries(params)) {
      if (!(route.paramPatterns?.[name] ?? ID_RE).test(v)) throw new AppError('not_found', `${name} not found`);
    }
    const query = queryOf(url, route.query, route.queryAliases);
    if (route.stream) {
      // A streamed route reads its own raw body or writes its own answer; it is not idempotency-keyed.
      const out = await route.handle({ actor, params, query, body: undefined, req, res }, domains.services[route.key]);
      return out === STREAMED ? null : ok(out);
    }
    const mutation = route.method !== 'GET';
    const key = mutation ? idempotencyKeyFrom(req.headers) : undefined;
    const checked = route.body ? validator.check(route.body, await readJson(req, route)) : undefined;
    const body = route.canonical && checked !== undefined ? route.canonical(checked) : checked;
    const call = async (d: ServerDomains) => ok(await route.handle({ actor, params, query, body }, d.services[route.key]));
    if (key === undefined) return call(domains);
    // Failed validation never reaches here, so it is never stored.
    // Security invariant: receipts are sealed with a key only the requester's own credential derives (never plaintext at rest).
    const seal = receiptKey(domains.meta.credentialKey, token!, actor.id, key);
    const begun = await domains.receipts.begin(actor.id, key, requestHash(route.method, url.pathname, body), seal);
    if (begun.kind === 'replay') return { status: begun.status, body: begun.body };
    // The mutation runs in the receipt's transaction, so it never commits without its receipt.
    return domains.receipts.runClaimed(actor.id, key, begun.claim, (sql) => call(domains.within(sql)), seal);
  };

  router.add('GET', '/v1/server', async (_req, res) => send(res, await info()));
  // No auth and nothing secret: a load balancer or supervisor asks whether this process can serve (database included).
  router.add('GET', '/v1/health', (req, res) =>
    dispatch('/v1/health', req, res, async () => {
      await (opts.checkDatabase?.() ?? Promise.resolve()).catch((e) => {
        throw e instanceof AppError && e.code === 'upstream_unavailable' ? e : new AppError('upstream_unavailable', 'the database is unavailable', { hint: 'retry shortly' });
      });
      return ok({ serverId: domains.meta.serverId, server: 'ok', database: 'ok' });
    }),
  );
  router.add('POST', '/v1/admin/bootstrap', (req, res) => dispatch('/v1/admin/bootstrap', req, res, () => bootstrap(req)));
  router.add('POST', '/v1/join', (req, res) => dispatch('/v1/join', req, res, () => join(req)));
  for (const r of mountedRoutes(opts.mounted)) {
    router.add(r.method, r.path, (req, res, params, url) => dispatch(r.path, req, res, () => run(r, req, res, url ?? new URL(req.url ?? '/', 'http://server.invalid'), { ...params })));
  }

  function send(res: ServerResponse, r: Reply): void {
    sendRaw(res, r.status, r.body);
  }

  const maxInFlight = opts.maxInFlight ?? SERVER_MAX_IN_FLIGHT;
  let inFlight = 0;

  async function dispatch(path: string, req: IncomingMessage, res: ServerResponse, handle: () => Promise<Reply | null>): Promise<void> {
    // Bounded admission: an overloaded server refuses at once, before auth or body, instead of queueing without limit.
    if (inFlight >= maxInFlight) {
      res.setHeader('connection', 'close');
      return send(res, fail(new AppError('admission_rejected', 'the server is at capacity; retry shortly')));
    }
    inFlight++;
    try {
      const r = await handle();
      if (r) send(res, r);
    } catch (e) {
      // A streamed answer that fails after its headers is cut, never followed by a second answer.
      if (res.headersSent) return void res.destroy();
      if (!(e instanceof AppError)) logger.error({ err: e, route: path }, 'server route failed');
      const err = e instanceof AppError ? e : new AppError('internal', 'internal server error');
      // An unread body (rejected before or while reading) must not be parsed as the next request.
      if (!req.complete) res.setHeader('connection', 'close');
      send(res, fail(err));
    } finally {
      inFlight--;
    }
  }

  return (req, res) => {
    // Security invariant: a loopback-bound server answers only loopback Host/Origin, before routing or auth.
    const allowed = opts.allowedHosts && opts.allowedHosts.size > 0 ? hostAllowed(req, opts.allowedHosts) : !opts.loopbackOnly || loopbackRequest(req);
    if (!allowed) {
      res.setHeader('connection', 'close');
      return send(res, fail(FORBIDDEN()));
    }
    if (opts.requireForwardedHttps && !PUBLIC_PATHS.has((req.url ?? '/').split('?', 1)[0]!) && !forwardedHttps(req)) {
      res.setHeader('connection', 'close');
      return send(res, fail(new AppError('denied', 'this server takes credentials from other machines only over https (through its TLS proxy)')));
    }
    // Security invariant: a path with a `.`/`..` segment (however encoded) is refused before URL normalization could
    // turn it into another route (GET /v1/tasks/. would otherwise become GET /v1/tasks).
    if (hasDotSegment(req.url ?? '/')) {
      res.setHeader('connection', 'close');
      return send(res, fail(new AppError('not_found', 'no such route')));
    }
    const url = new URL(req.url ?? '/', 'http://server.invalid');
    const m = router.match(req.method ?? 'GET', url.pathname);
    if (m.kind === 'found') {
      Promise.resolve(m.handler(req, res, m.params, url)).catch((e) => {
        logger.error({ err: e }, 'server handler crashed');
        if (!res.headersSent) send(res, fail(new AppError('internal', 'internal server error')));
      });
      return;
    }
    res.setHeader('connection', 'close');
    if (m.kind === 'method_not_allowed') {
      res.setHeader('allow', m.allow.join(', '));
      return send(res, fail(new AppError('invalid_input', `method not allowed; use ${m.allow.join(', ')}`)));
    }
    send(res, fail(new AppError('not_found', 'no such route')));
  };
}
