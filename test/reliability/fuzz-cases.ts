// Owns the hostile-input generators of the fuzz suite: one fast-check arbitrary of HTTP cases per route family, each with its own oracle.
import fc from 'fast-check';
import type { Reply, Runtime } from './kit.js';

export interface FuzzContext {
  rt: Runtime;
  execToken: () => string;
  ownerToken: string;
  port: number;
  taskIds: string[];
  messageIds: string[];
  /** nextCursor of `task list {limit: 20}` (no filters). */
  taskCursor: string;
  /** nextCursor of `message_history_read {target: channel:general, limit: 20}`. */
  messageCursor: string;
}

export interface FuzzCase {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Extra oracle beyond the shared one (no 5xx, bounded size); throws on violation. */
  check?: (r: Reply) => void;
}

export const DENIED = '{"ok":false,"error":{"code":"denied","message":"forbidden"}}';
const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`));
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 3 });
const json = (v: unknown) => JSON.stringify(v);
const legacy = (mcpPath: string) => mcpPath.replace('/api/internal/mcp/servers/', '/mcp/agentteam/').replace('/agents/', '/');

function mcpJson(c: FuzzContext) {
  return { authorization: `Bearer ${c.rt.mcpToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
}
function execJson(c: FuzzContext) {
  return { authorization: `Bearer ${c.execToken()}`, 'content-type': 'application/json' };
}

function body(a: fc.Arbitrary<unknown>): fc.Arbitrary<string | Buffer> {
  return fc.oneof(
    { weight: 12, arbitrary: a.map(json) },
    { weight: 1, arbitrary: fc.json() },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((u) => Buffer.from(u)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '[]', 'null', '{"a":1}{"b":2}', '\uFEFF{}', '{"jsonrpc":"2.0","id":1,"method":"ping"', '1e999') },
  );
}

/** A message_send is a state change only when it succeeds; the oracle reports how many general-channel messages it added. */
export function messagesAdded(r: Reply): number {
  if (r.status !== 200 || !r.body.startsWith('{')) return 0;
  const m = JSON.parse(r.body) as { result?: { isError?: boolean; structuredContent?: { target?: string; id?: string } } };
  return m.result && !m.result.isError && m.result.structuredContent?.target === 'channel:general' && m.result.structuredContent.id ? 1 : 0;
}

export function tasksAdded(r: Reply, path: string): number {
  if (!path.endsWith('/task/create') || r.status !== 200) return 0;
  return (JSON.parse(r.body) as { ok?: boolean }).ok === true ? 1 : 0;
}

/** MCP: JSON-RPC bodies of every shape to both route aliases. */
export function mcpBodyCase(c: FuzzContext): fc.Arbitrary<FuzzCase> {
  const target = fc.oneof(fc.constantFrom('channel:general', ' CHANNEL:general ', 'channel:nope', 'thread:general/msg_x', `thread:general/${c.messageIds[0]}`, 'dm:x', 'task:t', `task:${c.taskIds[0]}`, 'channel:', 'channel:general/../x'), fc.string({ maxLength: 30 }));
  const args = fc.oneof(
    fc.record({ target, content: fc.oneof(fc.string({ maxLength: 50 }), fc.string({ unit: 'grapheme', minLength: 7990, maxLength: 8010 })), replyTo: opt(fc.oneof(fc.constantFrom(...c.messageIds.slice(0, 3)), fc.string({ maxLength: 10 }))), attachments: opt(fc.array(fc.constantFrom('../../etc/passwd', '/etc/passwd', 'a.txt', '', '.'), { maxLength: 6 })) }, { requiredKeys: [] }),
    fc.record({ target, limit: opt(fc.oneof(fc.integer({ min: -5, max: 120 }), fc.double(), fc.string())), cursor: opt(fc.oneof(fc.string({ maxLength: 40 }), fc.constant(c.messageCursor))) }, { requiredKeys: [] }),
    fc.record({ messageId: fc.oneof(fc.constantFrom(...c.messageIds.slice(0, 3)), fc.string({ maxLength: 20 })), emoji: fc.string({ maxLength: 5 }), remove: opt(fc.boolean()) }, { requiredKeys: [] }),
    fc.record({ attachmentId: fc.oneof(fc.string({ maxLength: 20 }), fc.constant('../../etc/passwd')) }),
    fc.anything({ maxDepth: 3 }),
  );
  const params = fc.oneof(
    fc.constant(undefined),
    fc.record({ name: fc.oneof(fc.constantFrom('message_send', 'message_history_read', 'message_react', 'message_attachment_read', 'mcp__agentteam__message_send', 'task_list', '__proto__'), fc.string({ maxLength: 20 })), arguments: opt(args), _meta: opt(fc.anything({ maxDepth: 2 })) }, { requiredKeys: [] }),
    fc.record({ protocolVersion: fc.oneof(fc.constantFrom('2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'), fc.string({ maxLength: 12 })), capabilities: opt(fc.anything({ maxDepth: 2 })), clientInfo: opt(fc.anything({ maxDepth: 2 })) }, { requiredKeys: [] }),
    fc.anything({ maxDepth: 3 }),
  );
  const message = fc.record(
    {
      jsonrpc: fc.oneof({ weight: 9, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: fc.anything({ maxDepth: 1 }) }),
      id: fc.oneof({ weight: 6, arbitrary: fc.integer() }, { weight: 2, arbitrary: fc.string({ maxLength: 300 }) }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.anything({ maxDepth: 1 }) }),
      method: fc.oneof(fc.constantFrom('initialize', 'ping', 'tools/list', 'tools/call', 'notifications/initialized', 'notifications/cancelled', 'resources/list', 'prompts/get', '__proto__'), fc.string({ maxLength: 20 })),
      params,
      result: fc.anything({ maxDepth: 2 }),
      error: fc.anything({ maxDepth: 2 }),
    },
    { requiredKeys: [] },
  );
  // Some well-formed sends, so the state check sees accepted mutations next to rejected ones.
  const send = fc.record({ id: fc.nat(), content: fc.string({ minLength: 1, maxLength: 60 }) }).map(({ id, content }) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'message_send', arguments: { target: 'channel:general', content } } }));
  const batchy = fc.oneof({ weight: 9, arbitrary: message }, { weight: 1, arbitrary: fc.array(message, { maxLength: 3 }) }, { weight: 1, arbitrary: send });
  return fc.record({ legacy: fc.boolean(), b: body(batchy) }).map(({ legacy: l, b }) => ({
    method: 'POST',
    path: l ? legacy(c.rt.mcpPath) : c.rt.mcpPath,
    headers: mcpJson(c),
    body: b,
    check: (r: Reply) => {
      // A JSON-RPC internal error is the MCP spelling of a 5xx: hostile input must never reach one.
      if (r.body.includes('"code":-32603')) throw new Error('JSON-RPC internal error');
    },
  }));
}

const ACTIONS = ['task/create', 'task/get', 'task/list', 'task/update', 'task/assign', 'task/start', 'task/complete', 'task/reopen', 'task/cancel', 'task/block', 'task/comment', 'review/add', 'review/get', 'review/list', 'review/resolve', 'review/reopen'];

/** Exec: typed-ish and untyped bodies for every action (and some that do not exist). */
export function execBodyCase(c: FuzzContext): fc.Arbitrary<FuzzCase> {
  const id = fc.oneof(fc.constantFrom(...c.taskIds.slice(0, 3), 'tsk_nope', '', 'rev_x', '../x'), fc.string({ maxLength: 24 }));
  const value = fc.oneof(id, fc.integer({ min: -3, max: 200 }), fc.boolean(), fc.constant(null), fc.string({ maxLength: 40 }), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }));
  const input = fc.record(
    {
      title: opt(fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 199, maxLength: 202 }))),
      description: opt(fc.string({ maxLength: 60 })),
      taskId: opt(id),
      reviewId: opt(id),
      assigneeId: opt(id),
      expectedRevision: opt(fc.oneof(fc.integer({ min: -1, max: 5 }), fc.double())),
      reason: opt(fc.string({ maxLength: 20 })),
      body: opt(fc.string({ maxLength: 20 })),
      verdict: opt(fc.constantFrom('approve', 'request_changes', 'comment', 'nope')),
      target: opt(fc.oneof(fc.constantFrom(`task:${c.taskIds[0]}`, 'thread:general/x', 'channel:general'), fc.string({ maxLength: 20 }))),
      limit: opt(fc.oneof(fc.integer({ min: -1, max: 101 }), fc.double(), fc.string({ maxLength: 3 }))),
      cursor: opt(fc.oneof(fc.string({ maxLength: 30 }), fc.constant(c.taskCursor))),
      filters: opt(fc.oneof(fc.record({ status: opt(fc.constantFrom('open', 'in_progress', 'done', 'x')), assigneeId: opt(id), target: opt(fc.string({ maxLength: 10 })) }, { requiredKeys: [] }), value)),
      requestId: opt(fc.oneof(fc.string({ maxLength: 20 }), fc.string({ minLength: 250, maxLength: 300 }))),
      idempotencyKey: opt(fc.string({ maxLength: 20 })),
      extra: opt(value),
    },
    { requiredKeys: [] },
  );
  const action = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...ACTIONS) }, { weight: 1, arbitrary: fc.tuple(fc.stringMatching(/^[a-z_.-]{1,12}$/), fc.stringMatching(/^[a-z_.%-]{1,12}$/)).map(([a, b]) => `${a}/${b}`) });
  const keyHeaders = fc.record({ 'idempotency-key': opt(printable(30)), 'x-request-id': opt(printable(30)) }, { requiredKeys: [] });
  const hostile = fc.record({ action, b: body(fc.oneof({ weight: 8, arbitrary: input }, { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) })), extra: keyHeaders }).map(({ action: a, b, extra }) => {
    const headers: Record<string, string> = { ...execJson(c) };
    for (const [k, v] of Object.entries(extra)) if (v !== undefined) headers[k] = v;
    return { method: 'POST', path: `${c.rt.execBase}/${a}`, headers, body: b };
  });
  // Some well-formed creates, so the state check sees accepted mutations next to rejected ones.
  const create = fc.string({ minLength: 1, maxLength: 60 }).map((title) => ({ method: 'POST', path: `${c.rt.execBase}/task/create`, headers: execJson(c), body: json({ title }) }));
  return fc.oneof({ weight: 12, arbitrary: hostile }, { weight: 1, arbitrary: create });
}

/** Headers: credentials, content types, accept, protocol versions, Host/Origin, selectors and junk, on both bridges. */
export function headerCase(c: FuzzContext): fc.Arbitrary<FuzzCase> {
  const host = `127.0.0.1:${c.port}`;
  return fc
    .record({
      exec: fc.boolean(),
      auth: fc.oneof(
        { weight: 6, arbitrary: fc.constant('right') },
        { weight: 1, arbitrary: fc.constantFrom('other-bridge', 'owner', 'none') },
        { weight: 1, arbitrary: fc.tuple(fc.constantFrom('Bearer ', 'bearer ', 'Basic ', 'Bearer  ', 'Token ', ''), printable(60)).map(([s, t]) => `raw:${s}${t}`) },
        { weight: 1, arbitrary: fc.tuple(fc.nat(80), fc.constantFrom('', 'x', 'A', '0', '=')).map(([i, s]) => `mutate:${i}:${s}`) },
      ),
      contentType: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON') }, { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx') }, { weight: 1, arbitrary: printable(30) }, { weight: 1, arbitrary: fc.constant(undefined) }),
      accept: fc.oneof(fc.constantFrom('application/json, text/event-stream', 'text/event-stream', '*/*', 'text/html', 'application/json;q=0'), printable(40), fc.constant(undefined)),
      version: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: fc.constantFrom('2025-03-26', '2025-06-18', '2025-11-25') }, { weight: 1, arbitrary: printable(20) }),
      hostHeader: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(host, `localhost:${c.port}`, `[::1]:${c.port}`) }, { weight: 1, arbitrary: fc.constantFrom('evil.example', `127.0.0.1.evil.example:${c.port}`, 'attacker:80', `LOCALHOST.:${c.port}`) }, { weight: 1, arbitrary: printable(30).filter((x) => x.trim() !== '') }),
      origin: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(`http://127.0.0.1:${c.port}`, 'http://evil.example', 'null', 'file://', `http://localhost.evil:${c.port}`) }, { weight: 1, arbitrary: printable(30).filter((x) => x.trim() !== '') }),
      junk: fc.dictionary(fc.stringMatching(/^x-[a-z0-9-]{1,16}$/), printable(60), { maxKeys: 4 }),
      key: opt(printable(300)),
    })
    .map((h) => {
      const right = h.exec ? c.execToken() : c.rt.mcpToken;
      let authorization: string | undefined;
      if (h.auth === 'right') authorization = `Bearer ${right}`;
      else if (h.auth === 'other-bridge') authorization = `Bearer ${h.exec ? c.rt.mcpToken : c.execToken()}`;
      else if (h.auth === 'owner') authorization = `Bearer ${c.ownerToken}`;
      else if (h.auth.startsWith('raw:')) authorization = h.auth.slice(4);
      else if (h.auth.startsWith('mutate:')) {
        const [, i, s] = h.auth.split(':');
        const at = Number(i) % right.length;
        const mutated = right.slice(0, at) + s + right.slice(at + 1);
        authorization = `Bearer ${mutated}`;
      }
      const headers: Record<string, string> = { ...h.junk, host: h.hostHeader };
      if (authorization !== undefined) headers.authorization = authorization;
      if (h.contentType !== undefined) headers['content-type'] = h.contentType;
      if (h.accept !== undefined) headers.accept = h.accept;
      if (h.version !== undefined) headers['mcp-protocol-version'] = h.version;
      if (h.origin !== undefined) headers.origin = h.origin;
      if (h.key !== undefined) headers['idempotency-key'] = h.key;
      const credentialOk = authorization === `Bearer ${right}`;
      const loopback = [host, `localhost:${c.port}`, `[::1]:${c.port}`].includes(h.hostHeader) && (h.origin === undefined || h.origin === `http://127.0.0.1:${c.port}`);
      return {
        method: 'POST',
        path: h.exec ? `${c.rt.execBase}/task/list` : c.rt.mcpPath,
        headers,
        body: h.exec ? '{"limit":2}' : '{"jsonrpc":"2.0","id":7,"method":"ping"}',
        check: (r: Reply) => {
          // Security invariant under test: a wrong credential or a non-loopback Host/Origin is the one generic 403.
          if (!credentialOk || !loopback) {
            if (r.status !== 403 || r.body !== DENIED) throw new Error(`expected the generic 403, got ${r.status} ${r.body.slice(0, 100)}`);
          }
        },
      };
    });
}

/** Paths and methods: traversal, encodings, aliases, wrong ids, queries; with the runtime's own credentials. */
export function pathCase(c: FuzzContext): fc.Arbitrary<FuzzCase> {
  const seg = fc.oneof(
    fc.constantFrom('api', 'internal', 'exec', 'mcp', 'servers', 'agents', 'agentteam', c.rt.serverId, c.rt.agentId, 'task', 'list', 'create', 'catalog', 'review', '..', '.', '', '%2e%2e', '%2F', '%00', '%ZZ', '~', 'daemon', 'status', 'runtimes'),
    fc.stringMatching(/^[A-Za-z0-9._~%-]{0,20}$/),
  );
  const base = fc.constantFrom(c.rt.execBase, c.rt.mcpPath, legacy(c.rt.mcpPath), '', '/api/daemon', '/api/internal/exec/servers', '/mcp/agentteam');
  const path = fc
    .record({ base, segs: fc.array(seg, { maxLength: 6 }), query: opt(fc.stringMatching(/^[A-Za-z0-9=&%._-]{0,40}$/)), slash: fc.boolean() })
    .map(({ base: b, segs, query, slash }) => `${b}/${segs.join('/')}${slash ? '/' : ''}${query !== undefined ? `?${query}` : ''}`.replace(/^([^/])/, '/$1'));
  return fc.record({ method: fc.constantFrom('GET', 'POST', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD'), path, exec: fc.boolean(), long: fc.boolean() }).map(({ method, path: p, exec, long }) => {
    const headers = exec ? execJson(c) : mcpJson(c);
    const withBody = method !== 'GET' && method !== 'HEAD';
    return { method, path: long ? p + '/' + 'a'.repeat(4000) : p, headers, body: withBody ? (exec ? '{}' : '{"jsonrpc":"2.0","id":1,"method":"tools/list"}') : undefined };
  });
}

/** Cursors: the genuine ones, mutated, re-encoded, forged, or bound to another filter; never page one. */
export function cursorCase(c: FuzzContext): fc.Arbitrary<FuzzCase> {
  const mutate = (genuine: string) =>
    fc.oneof(
      fc.constant(genuine),
      fc.tuple(fc.nat(), fc.stringMatching(/^[A-Za-z0-9_=.+/-]$/)).map(([i, ch]) => genuine.slice(0, i % genuine.length) + ch + genuine.slice((i % genuine.length) + 1)),
      fc.nat().map((i) => genuine.slice(0, i % genuine.length)),
      fc.stringMatching(/^[A-Za-z0-9_=.-]{1,8}$/).map((s) => genuine + s),
      fc.constant(genuine.toUpperCase()),
      fc.constant(Buffer.from(genuine).toString('base64')),
      fc.constant(Buffer.from(genuine, 'base64url').toString('base64')),
      fc.string({ minLength: 1, maxLength: 60 }),
      fc.json().map((j) => Buffer.from(j).toString('base64url')),
      fc.string({ minLength: 1000, maxLength: 1100 }),
    );
  const exec = fc.record({ cursor: mutate(c.taskCursor), filter: fc.constantFrom(undefined, undefined, 'open', 'done'), limit: fc.constantFrom(undefined, 1, 20, 100) }).map(({ cursor, filter, limit }) => {
    const input = { cursor, ...(limit ? { limit } : {}), ...(filter ? { filters: { status: filter } } : {}) };
    const genuine = cursor === c.taskCursor && filter === undefined;
    return {
      method: 'POST',
      path: `${c.rt.execBase}/task/list`,
      headers: execJson(c),
      body: json(input),
      check: (r: Reply) => {
        const env = JSON.parse(r.body) as { ok: boolean; error?: { code: string } };
        if (genuine && !env.ok) throw new Error(`the genuine cursor was refused: ${r.body.slice(0, 120)}`);
        if (!genuine && env.ok) throw new Error(`a non-genuine cursor was accepted (status ${r.status}): ${JSON.stringify(input).slice(0, 200)}`);
        if (!genuine && env.error?.code !== 'validation_failed') throw new Error(`expected validation_failed, got ${r.body.slice(0, 120)}`);
      },
    };
  });
  const mcp = fc.record({ cursor: mutate(c.messageCursor), target: fc.constantFrom('channel:general', 'channel:general', `thread:general/${c.messageIds[0]}`) }).map(({ cursor, target }) => {
    const genuine = cursor === c.messageCursor && target === 'channel:general';
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'message_history_read', arguments: { target, cursor } } };
    return {
      method: 'POST',
      path: c.rt.mcpPath,
      headers: mcpJson(c),
      body: json(call),
      check: (r: Reply) => {
        const res = (JSON.parse(r.body) as { result?: { isError?: boolean; structuredContent?: { code?: string } } }).result;
        if (!res) throw new Error(`no tool result: ${r.body.slice(0, 120)}`);
        if (genuine && res.isError) throw new Error(`the genuine cursor was refused: ${r.body.slice(0, 160)}`);
        if (!genuine && !res.isError) throw new Error(`a non-genuine cursor was accepted: ${JSON.stringify(call.params.arguments).slice(0, 200)}`);
      },
    };
  });
  return fc.oneof(exec, mcp);
}
