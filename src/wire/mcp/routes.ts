// Owns the MCP Streamable HTTP endpoint on node:http: the two route families, one handler, stateless JSON/SSE responses.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SERVER_VERSION } from '../../shared/version.js';
import type { AuthGate, TokenInfo } from '../../authz/types.js';
import type { ServerApi } from '../../server-client/api.js';
import { AppError } from '../../shared/errors.js';
import type { Logger, RateLimitedLogger } from '../../shared/log.js';
import { type AuthedContext, authorized } from '../http/auth.js';
import { decodeJson, readBody } from '../http/body.js';
import { isJsonContentType, sendDenied, sendRaw } from '../http/guard.js';
import type { Router } from '../http/router.js';
import { AcceptNegotiator } from './accept.js';
import type { CurrentTurn, McpHandler, ToolContext } from './handler.js';
import { INTERNAL_ERROR, INVALID_REQUEST, type JsonRpcId, METHOD_NOT_FOUND, PARSE_ERROR, classify, errorResponse } from './jsonrpc.js';
import { type ModernHeaders, notificationProblem, selectEra, unsupportedHeaderProblem } from './modern.js';
import { type CallSite, createMcpProtocol, isModernMethod } from './protocol.js';

export const MCP_ROUTE = '/api/internal/mcp/servers/{serverId}/agents/{agentId}';
export const MCP_LEGACY_ROUTE = '/mcp/agentteam/{serverId}/{agentId}';

export interface McpRouteDeps {
  gate: AuthGate;
  diag: RateLimitedLogger;
  log: Logger;
  handler: McpHandler;
  apiFor(info: TokenInfo): ServerApi;
  /** The current turn of the token's runtime authorization (session metadata). */
  turnOf?(info: TokenInfo): CurrentTurn | undefined;
  /** serverInfo.version in initialize; defaults to the package version string the daemon passes. */
  version?: string;
  /** Test-only fault, never wired by the composition root: called after a request parsed, before dispatch; a throw reaches the catch-all. */
  fault?: (method: string) => void;
}

// Fixed bodies, built once (hot path and error paths never format per request).
const BATCH_REFUSED = errorResponse(null, INVALID_REQUEST, 'batches are not supported; send one JSON-RPC message per POST');
const PARSE_FAILED = errorResponse(null, PARSE_ERROR, 'parse error');
const BAD_CONTENT_TYPE = errorResponse(null, INVALID_REQUEST, 'Content-Type must be application/json');
const NOT_ACCEPTABLE = errorResponse(null, INVALID_REQUEST, 'Accept must allow application/json or text/event-stream');
const TOO_LARGE = errorResponse(null, INVALID_REQUEST, 'request body exceeds 1 MiB');
const TIMED_OUT = errorResponse(null, INVALID_REQUEST, 'request body not received within 5 s');
const UNREADABLE = errorResponse(null, INVALID_REQUEST, 'request body could not be read');
const NO_STREAM = errorResponse(null, INVALID_REQUEST, 'this server is stateless: POST JSON-RPC messages; no GET stream, no sessions');

function modernHeaders(req: IncomingMessage): ModernHeaders {
  const h = req.headers;
  return { protocolVersion: h['mcp-protocol-version'] as string | undefined, method: h['mcp-method'], name: h['mcp-name'] };
}

/** One request's call site: the tool context is built only when a tool runs, its server API only when a tool uses it. */
class Site implements CallSite {
  readonly runtimeKind: string;
  constructor(
    private readonly info: TokenInfo,
    private readonly signal: AbortSignal,
    readonly agentId: string,
    private readonly apiFor: (info: TokenInfo) => ServerApi,
    private readonly turnOf?: (info: TokenInfo) => CurrentTurn | undefined,
  ) {
    this.runtimeKind = info.authorization.runtimeKind;
  }

  ctx(): ToolContext {
    const { info, signal, apiFor, turnOf } = this;
    let api: ServerApi | undefined;
    // The server API is bound lazily: calls refused by local checks never build a client.
    return { info, signal, get api() { return (api ??= apiFor(info)); }, get turn() { return turnOf?.(info); } };
  }
}

function closeWith(res: ServerResponse, status: number, body: string): void {
  res.setHeader('connection', 'close');
  sendRaw(res, status, body);
}

function send202(res: ServerResponse): void {
  res.writeHead(202, { 'content-length': 0, 'cache-control': 'no-store' });
  res.end();
}

/**
 * Writes a JSON text answer. A string body (not a Buffer) lets node:http send head and body in one write, as a bare
 * node:http server does; the bytes are the same as sendRaw's.
 */
function sendText(res: ServerResponse, status: number, body: string): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(body);
}

function sendResponse(res: ServerResponse, sse: boolean, body: string): void {
  if (!sse) return sendText(res, 200, body);
  // One SSE event carrying the response, then the stream ends (JSON text never contains a raw newline).
  const text = `event: message\ndata: ${body}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(text);
}

/**
 * Registers POST/GET/DELETE on the canonical route and its legacy alias: one handler, one inventory.
 * GET answers 405: the server is stateless and never sends server-initiated messages, which the
 * Streamable HTTP transport allows ("MUST either return text/event-stream or 405"). DELETE answers 405 too:
 * no Mcp-Session-Id is ever issued, so there is no session to terminate.
 */
export function registerMcpRoutes(router: Router, deps: McpRouteDeps): void {
  const accept = new AcceptNegotiator();
  const protocol = createMcpProtocol(deps.handler, { version: deps.version ?? SERVER_VERSION, log: deps.log });

  /** The catch-all: an unexpected error answers -32603 with the request's id when its body parsed (null otherwise). */
  function failed(res: ServerResponse, id: JsonRpcId | null, e: unknown): void {
    // Security invariant: the cause is logged by class only and never returned.
    deps.log.error({ err: e instanceof Error ? e.name : typeof e }, 'mcp request failed');
    sendText(res, 200, errorResponse(id, INTERNAL_ERROR, 'internal error'));
  }

  async function post(req: IncomingMessage, res: ServerResponse, { info, lease, params }: AuthedContext): Promise<void> {
    // Security invariant: POST bodies must be application/json (no CORS "simple" request reaches a tool).
    if (req.headers['content-type'] !== 'application/json' && !isJsonContentType(req)) return closeWith(res, 415, BAD_CONTENT_TYPE);
    const sse = accept.choose(req.headers.accept);
    if (sse === null) return closeWith(res, 406, NOT_ACCEPTABLE);
    let body: Buffer;
    try {
      // Security invariant: 1 MiB cap and 5 s absolute deadline; revocation aborts the read.
      body = await readBody(req, { signal: lease.signal });
    } catch (e) {
      const code = e instanceof AppError ? e.code : 'internal';
      if (code === 'payload_too_large') return closeWith(res, 413, TOO_LARGE);
      if (code === 'request_timeout') return closeWith(res, 408, TIMED_OUT);
      if (code === 'denied') {
        res.setHeader('connection', 'close');
        return sendDenied(res);
      }
      return closeWith(res, 400, UNREADABLE);
    }
    let msg: unknown;
    try {
      msg = decodeJson(body);
    } catch {
      return sendText(res, 400, PARSE_FAILED);
    }
    const m = classify(msg);
    const headers = modernHeaders(req);
    // An unsupported MCP-Protocol-Version is checked once the body is read, so the -32022 carries the request's id.
    const unsupported = unsupportedHeaderProblem(headers, m.kind === 'request' || m.kind === 'invalid' ? m.id : null);
    if (unsupported !== null) return sendText(res, 400, unsupported);
    switch (m.kind) {
      case 'batch':
        // MCP 2025-11-25: a POST body is a single JSON-RPC message; batches are refused.
        return sendText(res, 400, BATCH_REFUSED);
      case 'invalid':
        return sendText(res, 400, errorResponse(m.id, INVALID_REQUEST, 'invalid request'));
      case 'notification': {
        const bad = notificationProblem(headers, m.method);
        return bad === null ? send202(res) : sendText(res, 400, bad);
      }
      case 'response':
        return send202(res);
    }
    try {
      // Per request: 2026-07-28 when the body claims it in _meta (or the header names it), 2025 rules otherwise.
      const era = selectEra(headers, m.id, m.method, m.params);
      if (era.era === 'reject') return sendText(res, era.status, era.body);
      // Fence: a revoked authorization never dispatches.
      if (!lease.live()) return sendDenied(res);
      // 2026-07-28: a method not served here (initialize, ping, logging/setLevel, …) is HTTP 404 with -32601.
      if (era.era === 'modern' && !isModernMethod(m.method)) return sendText(res, 404, errorResponse(m.id, METHOD_NOT_FOUND, 'method not found'));
      deps.fault?.(m.method);
      const site = new Site(info, lease.signal, params.agentId!, deps.apiFor, deps.turnOf);
      const answer = era.era === 'modern' ? protocol.dispatchModern(m.id, m.method, m.params, site) : protocol.dispatch(m.id, m.method, m.params, site);
      const out = typeof answer === 'string' ? answer : await answer;
      // Fence: nothing is published after revocation, success or not.
      if (!lease.live()) return sendDenied(res);
      sendResponse(res, sse, out);
    } catch (e) {
      failed(res, m.id, e);
    }
  }

  // Before the body parsed there is no id to carry.
  const onPost = authorized(deps.gate, 'mcp', deps.diag, (req, res, ctx) => post(req, res, ctx).catch((e: unknown) => failed(res, null, e)));
  const noStream = authorized(deps.gate, 'mcp', deps.diag, (_req, res) => {
    res.setHeader('allow', 'POST');
    closeWith(res, 405, NO_STREAM);
  });
  for (const pattern of [MCP_ROUTE, MCP_LEGACY_ROUTE]) {
    router.add('POST', pattern, onPost);
    router.add('GET', pattern, noStream);
    router.add('DELETE', pattern, noStream);
  }
}

