// Owns the Exec routes: the merged catalog route and the dynamic action route, from auth to the budgeted envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BoundAction } from './action.js';
import { resolveIdempotencyKey } from './idempotency.js';
import { forRequest } from '../../catalog/operations.js';
import { systemClock, type Clock } from '../../shared/clock.js';
import type { AuthGate, TokenInfo } from '../../authz/types.js';
import { actionKey } from '../../catalog/catalog.js';
import type { DescriptorCatalog } from '../../catalog/types.js';
import type { ServerApi } from '../../server-client/api.js';
import { AppError } from '../../shared/errors.js';
import type { Logger, RateLimitedLogger } from '../../shared/log.js';
import { authorized, type AuthedContext } from '../http/auth.js';
import { BODY_DEADLINE_MS, decodeJson, readBody } from '../http/body.js';
import { isJsonContentType, sendDenied, sendRaw } from '../http/guard.js';
import type { Router } from '../http/router.js';
import { budgetSuccess, RESULT_BUDGET_BYTES } from './budget.js';
import { classify, errorEnvelope, statusOf, type ErrorEnvelope } from './envelope.js';
import { registerJson, type LocalServices, type RegisteredAction } from './register.js';
import { DescriptorValidator } from './validator.js';
import { extensionPins, forwardExtension, type ExtensionForwarder } from './forward.js';

import { EXEC_ROOT } from '../../shared/routes.js';

export { EXEC_ROOT };

export interface ExecRouteDeps {
  gate: AuthGate;
  diag: RateLimitedLogger;
  log: Logger;
  /** The ServerApi bound to the token's authorized agent. */
  apiFor(info: TokenInfo): ServerApi;
  /** Daemon-local services for the token's agent (local domains such as `agent`); none by default. */
  localsFor?(info: TokenInfo): LocalServices;
  /** Concrete handlers, one per catalog action (the composition root's registry list). */
  actions: readonly BoundAction[];
  /** Descriptors + inventory (DefaultDescriptorCatalog of the same domains). */
  catalog: DescriptorCatalog;
  /** Time for handlers and the body deadline; the system clock by default. */
  clock?: Clock;
  /** Absolute body read deadline; the spec's 5 s by default (tests shorten it). */
  bodyDeadlineMs?: number;
  /** The Extension forwarder to the server's `/runtime/ext`, as the token's agent; none: Extension actions are not found. */
  extensionsFor?(info: TokenInfo): ExtensionForwarder;
}

/** Builds the route map; fails closed if a handler has no descriptor/inventory row or a descriptor has no handler. */
export function buildActionMap(catalog: DescriptorCatalog, actions: readonly BoundAction[], clock: Clock = systemClock): Map<string, RegisteredAction> {
  const map = new Map<string, RegisteredAction>();
  for (const a of actions) {
    const k = actionKey(a.descriptor.domain, a.descriptor.action);
    if (catalog.find(a.descriptor.domain, a.descriptor.action) !== a.descriptor) throw new Error(`exec routes: handler ${k} has no catalog descriptor`);
    if (!catalog.inventory.has(k)) throw new Error(`exec routes: handler ${k} has no inventory row`);
    if (map.has(k)) throw new Error(`exec routes: duplicate handler ${k}`);
    map.set(k, registerJson(a.descriptor, a.handler, a.apiKey, clock, a.local === true));
  }
  for (const d of catalog.actions) if (!map.has(actionKey(d.domain, d.action))) throw new Error(`exec routes: descriptor ${actionKey(d.domain, d.action)} has no handler`);
  return map;
}

function sendEnvelope(res: ServerResponse, env: ErrorEnvelope, close = false): void {
  if (close) res.setHeader('connection', 'close');
  sendRaw(res, statusOf(env.error.code), JSON.stringify(env));
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

export function registerExecRoutes(router: Router, deps: ExecRouteDeps): void {
  const catalog = deps.catalog;
  const actions = buildActionMap(catalog, deps.actions, deps.clock);
  const validator = new DescriptorValidator();

  // The merged catalog is an index (no schemas), so it stays within the result budget as domains are added;
  // `?domain=<name>` returns that domain's full descriptors with their input/output schemas.
  router.add('GET', `${EXEC_ROOT}/catalog`, authorized(deps.gate, 'exec', deps.diag, (req, res, { info, lease }) => {
    const rc = info.authorization.catalog;
    const q = new URL(req.url ?? '/', 'http://local').searchParams;
    const domain = q.get('domain');
    if ([...q.keys()].some((k) => k !== 'domain') || (domain !== null && ![...rc.actions.values()].some((d) => d.domain === domain))) {
      return sendEnvelope(res, errorEnvelope('validation_failed', 'the catalog takes only ?domain=<a domain of this catalog>', { hint: 'use agentteam exec --help' }));
    }
    const list = [...rc.actions.values()]
      .filter((d) => domain === null || d.domain === domain)
      .map((d) => ({ domain: d.domain, action: d.action, summary: d.summary, risk: d.risk, resultPolicy: d.resultPolicy, example: d.example, ...(domain !== null ? { input: d.input, output: d.output } : {}) }));
    // Extension domains' help lines (built-in ones are compiled into the CLI).
    const summaries = Object.fromEntries([...(rc.summaries ?? [])].filter(([d]) => domain === null || d === domain));
    const body = JSON.stringify({ ok: true, data: { version: rc.version, actions: list, ...(Object.keys(summaries).length ? { summaries } : {}) } });
    if (!lease.live()) return sendDenied(res);
    if (Buffer.byteLength(body) > RESULT_BUDGET_BYTES) return sendEnvelope(res, errorEnvelope('result_budget_exceeded', 'the catalog is too large to return', { hint: 'use agentteam exec --help' }));
    sendRaw(res, 200, body);
  }));

  router.add('POST', `${EXEC_ROOT}/{domain}/{action}`, authorized(deps.gate, 'exec', deps.diag, (req, res, ctx) => handleAction(req, res, ctx, catalog, actions, validator, deps)));
}

async function handleAction(req: IncomingMessage, res: ServerResponse, { info, lease, params }: AuthedContext, catalog: DescriptorCatalog, actions: Map<string, RegisteredAction>, validator: DescriptorValidator, deps: ExecRouteDeps): Promise<void> {
  // Security invariant: only application/json bodies, so a web page cannot post here with a CORS "simple" request.
  if (!isJsonContentType(req)) return sendEnvelope(res, errorEnvelope('invalid_input', 'Content-Type must be application/json'), true);
  let body: Buffer;
  try {
    body = await readBody(req, { signal: lease.signal, deadlineMs: deps.bodyDeadlineMs ?? BODY_DEADLINE_MS, ...(deps.clock ? { clock: deps.clock } : {}) });
  } catch (e) {
    if (e instanceof AppError && e.code === 'denied') return sendDenied(res);
    return sendEnvelope(res, classify(e), true);
  }
  // Fence: the authorization may have been revoked while the body was read.
  if (!lease.live()) return sendDenied(res);
  const domain = params.domain!;
  const name = params.action!;
  const key = actionKey(domain, name);
  let scoped;
  let registered: RegisteredAction | undefined;
  try {
    const value = decodeJson(body);
    // Only the token's own immutable RuntimeCatalog decides which actions exist for this runtime.
    const descriptor = info.authorization.catalog.actions.get(key);
    if (!descriptor) throw new AppError('not_found', `unknown action: ${domain} ${name}`.slice(0, 200), { hint: 'run agentteam exec --help' });
    const checked = validator.validate(descriptor.input, value);
    if (!checked.ok) {
      const selector = checked.path === '/requestId' || checked.path === '/idempotencyKey';
      throw new AppError(selector ? 'invalid_input' : 'validation_failed', checked.message, { hint: `run agentteam exec ${domain} ${name} --input-schema` });
    }
    registered = actions.get(key);
    const pins = registered ? undefined : extensionPins(info.authorization.catalog, domain);
    if (pins && deps.extensionsFor) {
      // Fence: nothing is forwarded once the authorization is revoked, and no answer is published after it.
      if (!lease.live()) return sendDenied(res);
      const out = await forwardExtension({ forward: deps.extensionsFor(info), descriptor, pins, input: value, signal: lease.signal, validator, catalog });
      if (!lease.live()) return sendDenied(res);
      return out.ok ? sendRaw(res, 200, out.body) : sendEnvelope(res, out.envelope);
    }
    if (!registered) throw new AppError('not_found', `action ${domain} ${name} is not available in this daemon`);
    if (registered.descriptor !== descriptor && !validator.validate(registered.descriptor.input, value).ok) throw new AppError('validation_failed', 'input does not match this daemon\'s schema');
    const idempotencyKey =
      forRequest(descriptor, value).risk === 'read'
        ? undefined
        : resolveIdempotencyKey({ body: value as Record<string, unknown>, headers: { idempotencyKey: header(req, 'idempotency-key'), requestId: header(req, 'x-request-id') } });
    scoped = { input: value, serverId: info.authorization.serverId, agentId: info.authorization.agentId, signal: lease.signal, idempotencyKey };
  } catch (e) {
    return sendEnvelope(res, classify(e));
  }
  // Fence: nothing is dispatched to the product owner once the authorization is revoked.
  if (!lease.live()) return sendDenied(res);
  let result;
  try {
    result = await registered.invoke(scoped, deps.apiFor(info), deps.localsFor?.(info));
  } catch (e) {
    const env = classify(e);
    if (env.error.code === 'internal') deps.log.warn({ domain, action: name, generationId: info.generationId, error: e instanceof Error ? e.name : typeof e }, 'exec action failed');
    if (!lease.live()) return sendDenied(res);
    return sendEnvelope(res, env);
  }
  const out = budgetSuccess({ descriptor: registered.descriptor, row: catalog.inventory.get(key), catalog, result, idempotencyKey: scoped.idempotencyKey, input: scoped.input });
  // Fence: success is not published after revocation.
  if (!lease.live()) return sendDenied(res);
  if (!out.ok) return sendEnvelope(res, out.envelope);
  sendRaw(res, 200, out.body);
}
