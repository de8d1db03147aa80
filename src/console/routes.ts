// Owns the console's HTTP surface: the owner's login-link route, the login, the page and its assets, the JSON API and the event stream.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { validateValue } from '../catalog/validate.js';
import { sendError } from '../wire/http/guard.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { constantTimeEqual } from '../shared/ids.js';
import type { RateLimitedLogger } from '../shared/log.js';
import { decodeJson, readBody } from '../wire/http/body.js';
import { bearerToken, loopbackRequest, sendDenied, sendJson, sendRaw } from '../wire/http/guard.js';
import type { Router } from '../wire/http/router.js';
import type { ConsoleAssets } from './assets.js';
import { BOARDS, DETAILS, type BoardName, type ConsoleBoards, type DetailName } from './boards.js';
import { checkConsole, clearedCookie, fromAnotherSite, securityHeaders, sessionCookie, sessionIdOf, type Refusal } from './guard.js';
import type { ConsoleReads } from './read-models.js';
import { ConsoleAuth, type ConsoleSession } from './sessions.js';
import { streamEvents } from './events.js';

export interface ConsoleDeps {
  auth: ConsoleAuth;
  reads: ConsoleReads;
  boards: ConsoleBoards;
  assets: ConsoleAssets;
  clock: Clock;
  diag: RateLimitedLogger;
  /** The owner token: only the login-link route takes it (never a console route). */
  ownerToken: Buffer;
  port: () => number;
  post: (input: { target: string; content: string }) => Promise<unknown>;
  stopRuntime: (runId: string) => Promise<unknown>;
  /** Opens (or finds) the owner's DM with one member by name: its target. */
  openDm: (name: string) => Promise<{ target: string }>;
}

/** Console API requests at once; event streams at once. */
const MAX_IN_FLIGHT = 32;
const MAX_STREAMS = 8;

const PostMessage = Type.Object({ target: Type.String({ minLength: 1, maxLength: 300 }), content: Type.String({ minLength: 1, maxLength: 8000 }) }, { additionalProperties: false });
const Decide = Type.Object({ decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]), note: Type.Optional(Type.String({ maxLength: 2000 })) }, { additionalProperties: false });
const OpenDm = Type.Object({ with: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
const Empty = Type.Object({}, { additionalProperties: false });

function parse<T extends TSchema>(schema: T, value: unknown): Static<T> {
  const v = validateValue(schema, value);
  if (!v.ok) throw new AppError('validation_failed', v.message);
  return value as Static<T>;
}

const PAGE_ONWARD = '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/console/"><title>AgentTeam console</title></head><body><main><p><a href="/console/">Open the AgentTeam console</a></p></main></body></html>';
const PAGE_REFUSED = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>AgentTeam console</title><link rel="stylesheet" href="/console/assets/app.css"></head><body><main class="refused"><h1>AgentTeam console</h1><p>This login link is spent or expired, or this browser has no console session.</p><p>Run <code>agentteam console</code> for a new link.</p></main></body></html>';

type ApiHandler = (req: IncomingMessage, res: ServerResponse, params: Readonly<Record<string, string>>, s: { session: ConsoleSession; sessionId: string }) => Promise<void>;

export function registerConsoleRoutes(router: Router, deps: ConsoleDeps): void {
  const { auth, reads } = deps;
  let inFlight = 0;
  let streams = 0;
  const refuse = (res: ServerResponse, why: Refusal, route: string, page = false) => {
    deps.diag.warn(`console:${why}`, { route, reason: why }, 'console request refused');
    if (page) return sendRaw(res, 403, PAGE_REFUSED, 'text/html; charset=utf-8');
    sendDenied(res);
  };
  const ok = (res: ServerResponse, data: unknown, status = 200) => sendJson(res, status, { ok: true, data });
  const query = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://x').searchParams;
  /** The query's parameters, each at most once and each one this route takes: anything else is invalid_input. */
  const strictQuery = (req: IncomingMessage, allowed: readonly string[]): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [k, v] of query(req)) {
      if (!allowed.includes(k)) throw new AppError('invalid_input', `unknown query parameter: ${k.slice(0, 40)} (this route takes ${allowed.length ? allowed.join(', ') : 'none'})`);
      if (k in out) throw new AppError('invalid_input', `${k} is given more than once`);
      out[k] = v;
    }
    return out;
  };
  const body = async <T extends TSchema>(req: IncomingMessage, schema: T) => parse(schema, decodeJson(await readBody(req, { maxBytes: 64 * 1024 })));

  // Security invariant: every console API route passes checkConsole (loopback, no bearer, same origin, session, CSRF).
  const api = (route: string, h: ApiHandler) => async (req: IncomingMessage, res: ServerResponse, params: Readonly<Record<string, string>>) => {
    securityHeaders(res);
    const c = checkConsole(req, auth, deps.port());
    if (!c.ok) return refuse(res, c.why, route);
    if (inFlight >= MAX_IN_FLIGHT) return sendError(res, new AppError('admission_rejected', 'too many console requests at once; retry shortly'));
    inFlight++;
    try {
      await h(req, res, params, { session: c.session!, sessionId: c.sessionId! });
    } catch (e) {
      sendError(res, e);
    } finally {
      inFlight--;
    }
  };

  // The owner CLI asks for a one-time login link (owner token; loopback). The secret is in the answer only, never logged.
  router.add('POST', '/api/daemon/console/link', async (req, res) => {
    const secret = bearerToken(req);
    if (!loopbackRequest(req) || !secret || !constantTimeEqual(Buffer.from(secret), deps.ownerToken)) {
      deps.diag.warn('owner:auth', { route: 'owner' }, 'owner authentication failed');
      return sendDenied(res);
    }
    ok(res, { url: `http://127.0.0.1:${deps.port()}/console/login?t=${auth.issueLink()}` }, 201);
  });

  router.add('GET', '/console/login', async (req, res) => {
    securityHeaders(res);
    const c = checkConsole(req, auth, deps.port(), { page: true, anonymous: true, login: true });
    if (!c.ok) return refuse(res, c.why, 'login', true);
    const redeemed = auth.redeem(query(req).get('t') ?? undefined);
    if (!redeemed) return refuse(res, 'session', 'login', true);
    // The browser's cookie is about to be replaced: a session it held (fixed there by anyone) ends rather than lingers.
    auth.end(sessionIdOf(req, deps.port()));
    res.setHeader('set-cookie', sessionCookie(deps.port(), redeemed.sessionId));
    // Reached from another site (agentteam console's private file:// page): a redirect would stay cross-site and the
    // SameSite=Strict cookie would not go with it, so this page sends the browser on from its own origin instead.
    if (fromAnotherSite(req)) return sendRaw(res, 200, PAGE_ONWARD, 'text/html; charset=utf-8');
    res.setHeader('location', '/console/');
    sendRaw(res, 303, '', 'text/plain');
  });

  router.add('GET', '/console', async (req, res) => {
    securityHeaders(res);
    const c = checkConsole(req, auth, deps.port(), { page: true });
    if (!c.ok) return refuse(res, c.why, 'page', true);
    const html = deps.assets.page(c.session!.csrf);
    if (!html) return sendRaw(res, 503, 'the console is not built; run: npm run build', 'text/plain; charset=utf-8');
    sendRaw(res, 200, html, 'text/html; charset=utf-8');
  });

  router.add('GET', '/console/assets/{file}', async (req, res, p) => {
    securityHeaders(res);
    const c = checkConsole(req, auth, deps.port(), { page: true, anonymous: true });
    if (!c.ok) return refuse(res, c.why, 'asset');
    const a = deps.assets.file(p.file!);
    if (!a) return sendError(res, new AppError('not_found', 'no such asset'));
    sendRaw(res, 200, a.body, a.type);
  });

  router.add('GET', '/console/api/conversations', api('conversations', async (req, res) => {
    strictQuery(req, []);
    ok(res, await reads.conversations());
  }));
  router.add('GET', '/console/api/messages', api('messages', async (req, res) => {
    const q = strictQuery(req, ['target', 'cursor']);
    const target = q.target;
    if (!target || target.length > 300) throw new AppError('invalid_input', 'target is required (at most 300 characters)');
    const cursor = q.cursor;
    if (cursor !== undefined && cursor.length > 512) throw new AppError('invalid_input', 'cursor is too long');
    ok(res, await reads.messages(target, 50, cursor));
  }));
  router.add('POST', '/console/api/messages', api('post', async (req, res) => ok(res, await deps.post(await body(req, PostMessage)), 201)));
  router.add('POST', '/console/api/dms', api('dm', async (req, res) => ok(res, await deps.openDm((await body(req, OpenDm)).with))));
  router.add('GET', '/console/api/state', api('state', async (req, res) => {
    strictQuery(req, []);
    ok(res, reads.state());
  }));
  router.add('POST', '/console/api/runtimes/{runId}/stop', api('stop', async (req, res, p) => {
    await body(req, Empty);
    await deps.stopRuntime(p.runId!);
    ok(res, { runtimes: reads.runtimes() });
  }));
  router.add('GET', '/console/api/boards', api('boards', async (req, res) => {
    strictQuery(req, []);
    ok(res, await deps.boards.all());
  }));
  // One more page of one board, after the cursor of the page before (the first page without one).
  router.add('GET', '/console/api/boards/{board}', api('boards', async (req, res, p) => {
    const board = p.board as BoardName;
    if (!BOARDS.includes(board)) throw new AppError('not_found', `no such board (boards: ${BOARDS.join(', ')})`);
    ok(res, await deps.boards.page(board, strictQuery(req, ['cursor']).cursor));
  }));
  // An item's nested list (a task's reviews, a schedule's runs, a workflow run's steps), a page at a time.
  router.add('GET', '/console/api/boards/{board}/{id}/{detail}', api('boards', async (req, res, p) => {
    const detail = p.detail as DetailName;
    if (!Object.hasOwn(DETAILS, detail) || DETAILS[detail] !== p.board) throw new AppError('not_found', 'no such list (tasks/{id}/reviews, schedules/{id}/runs, workflows/{id}/steps)');
    ok(res, await deps.boards.detail(detail, p.id!, strictQuery(req, ['cursor']).cursor));
  }));
  router.add('POST', '/console/api/approvals/{approvalId}/decision', api('decide', async (req, res, p) => {
    const b = await body(req, Decide);
    ok(res, await deps.boards.decide(p.approvalId!, b.decision, b.note));
  }));
  router.add('POST', '/console/api/logout', api('logout', async (req, res, _p, s) => {
    await body(req, Empty);
    auth.end(s.sessionId);
    res.setHeader('set-cookie', clearedCookie(deps.port()));
    ok(res, { loggedOut: true });
  }));
  router.add('GET', '/console/api/events', async (req, res) => {
    securityHeaders(res);
    const c = checkConsole(req, auth, deps.port());
    if (!c.ok) return refuse(res, c.why, 'events');
    if (streams >= MAX_STREAMS) return sendError(res, new AppError('admission_rejected', 'too many console event streams; close another console tab'));
    let target: string | undefined;
    try {
      target = strictQuery(req, ['target']).target;
    } catch (e) {
      return sendError(res, e);
    }
    if (target !== undefined && (target.length < 1 || target.length > 300)) return sendError(res, new AppError('invalid_input', 'target must be 1..300 characters'));
    streams++;
    res.once('close', () => streams--);
    // The stream ends when the session does (logout or expiry), checked on every tick.
    streamEvents(res, { reads, clock: deps.clock, target, live: () => auth.session(c.sessionId) !== undefined });
  });
}
