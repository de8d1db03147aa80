// Owns the hardened HTTP(S) listener shared by the daemon and the AgentTeam Server: short header/idle timeouts, a bound on open connections (503 beyond).
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Socket } from 'node:net';

export interface ListenerLimits {
  /** Open connections at once; one more is answered 503 and closed unread. */
  maxConnections?: number;
  /** Time allowed for a new connection (or a kept-alive one's next request) to deliver its headers. */
  headersTimeoutMs?: number;
  /** Time allowed to receive a whole request (headers + body); routes enforce their own shorter body deadline. */
  requestTimeoutMs?: number;
  /** Idle time a kept-alive connection waits for its next request. */
  keepAliveTimeoutMs?: number;
}

export const LISTENER_DEFAULTS = { maxConnections: 2048, headersTimeoutMs: 5_000, requestTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000 } as const;

const OVERLOADED_BODY = '{"ok":false,"error":{"code":"admission_rejected","message":"too many open connections; retry shortly"}}';
const OVERLOADED = `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(OVERLOADED_BODY)}\r\nconnection: close\r\ncache-control: no-store\r\n\r\n${OVERLOADED_BODY}`;

/** A refused request's unread body up to this declared length is read and discarded by Node, as HTTP expects. */
const DRAIN_MAX = 64 * 1024;

/**
 * True while the request still has body bytes nobody read, more than DRAIN_MAX or of unknown length (chunked).
 * Security invariant: an answer sent then closes the connection (no reading a body we did not want, no parsing its tail
 * as a next request); a small declared body is drained (bounded by its length) so the connection is reused, not lingered.
 */
export function bodyPending(req: IncomingMessage): boolean {
  if (req.complete) return false;
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > DRAIN_MAX;
}

/** How long a closing connection with an unread body lingers half-closed (not read) so the peer can read the answer. */
const LINGER_MS = 2_000;

/**
 * Stops reading `socket` for good. Security invariant: after a refusal nothing more is read from the socket: Node's
 * request dump (resOnFinish → req._dump → socket.resume) would read the whole body, so resume is made a no-op.
 */
function stopReading(socket: Socket): void {
  socket.pause();
  socket.resume = () => socket;
}

/** Set on each accepted socket by its listener: moves it from the open count to the lingering count, once. */
const LINGER = Symbol('agentteam.linger');
type Lingerable = Socket & { [LINGER]?: () => boolean };

/**
 * Half-closes without reading further: the answer and a FIN reach the peer, the unread body stays unread, then close.
 * A lingering socket no longer counts as open (refusals cannot crowd out served connections); lingering sockets have
 * their own bound (the listener's maxConnections), beyond which one is closed at once.
 */
export function lingerClose(socket: Socket): void {
  stopReading(socket);
  if (!socket.writableEnded) socket.end();
  if (socket.destroyed) return;
  const release = (socket as Lingerable)[LINGER];
  (socket as Lingerable)[LINGER] = undefined;
  if (release && !release()) return void socket.destroy();
  // Security invariant: a refused connection is destroyed within LINGER_MS, whatever the peer does.
  const t = setTimeout(() => socket.destroy(), LINGER_MS);
  t.unref();
  socket.once('close', () => clearTimeout(t));
}

/** Marks `res` to close its connection once sent, without reading what is left of the request body. */
export function closeWithoutDraining(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('connection', 'close');
  const socket = res.req?.socket;
  if (!socket) return;
  // Nothing more is read from here on, while the answer is still being written.
  stopReading(socket);
  // Node would dump (read and discard) the body, then destroy at once (an RST that can eat the answer): linger instead.
  socket.destroySoon = () => lingerClose(socket);
  res.once('finish', () => lingerClose(socket));
}

/** PEM certificate chain and key: the listener terminates TLS itself (https). */
export interface ListenerTls {
  cert: string | Buffer;
  key: string | Buffer;
}

/**
 * Creates the listener: timeouts are short and checked every second; connections beyond the bound get 503 and are closed.
 * With `tls`, the same bounds hold; a TCP connection over the bound is closed before its handshake (no cleartext 503).
 */
export function createHardenedServer(handler: RequestListener, limits: ListenerLimits = {}, tls?: ListenerTls): Server {
  const max = limits.maxConnections ?? LISTENER_DEFAULTS.maxConnections;
  const idleMs = limits.headersTimeoutMs ?? LISTENER_DEFAULTS.headersTimeoutMs;
  const httpOpts = {
    headersTimeout: limits.headersTimeoutMs ?? LISTENER_DEFAULTS.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs ?? LISTENER_DEFAULTS.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs ?? LISTENER_DEFAULTS.keepAliveTimeoutMs,
    connectionsCheckingInterval: 1_000,
  };
  const onRequest: RequestListener = (req, res) => {
    if (refused.has(req.socket)) return void req.socket.destroy();
    req.socket.setTimeout(0); // a request arrived: from here headers/request/keep-alive timeouts apply
    handler(req, res);
  };
  const server: Server = tls
    ? (createTlsServer({ ...httpOpts, cert: tls.cert, key: tls.key, handshakeTimeout: idleMs }, onRequest) as unknown as Server)
    : createServer(httpOpts, onRequest);
  const refused = new WeakSet<Socket>();
  let open = 0;
  let lingering = 0;
  server.on('connection', (socket: Socket) => {
    // Security invariant: open connections per listener are bounded; one more gets a clear 503 and is closed unread.
    if (open >= max) {
      if (tls) return void socket.destroy();
      refused.add(socket);
      socket.pause();
      socket.end(OVERLOADED, () => socket.destroy());
      return;
    }
    open++;
    let counted: 'open' | 'lingering' | 'none' = 'open';
    // Called once at most (lingerClose takes it off the socket first).
    (socket as Lingerable)[LINGER] = () => {
      open--;
      if (lingering >= max) {
        counted = 'none';
        return false;
      }
      lingering++;
      counted = 'lingering';
      return true;
    };
    socket.once('close', () => {
      if (counted === 'open') open--;
      else if (counted === 'lingering') lingering--;
    });
    // A connection that never sends a byte is not covered by the header timeout: close it after the same time idle.
    // (With TLS the handshake timeout covers the raw socket; the idle timer goes on the decrypted socket.)
    if (!tls) socket.setTimeout(idleMs, () => socket.destroy());
  });
  if (tls) server.on('secureConnection', (socket: Socket) => void socket.setTimeout(idleMs, () => socket.destroy()));
  // Clients that send malformed, too-slow or too-large headers (Node's 16 KiB cap, URL included) get a 400/408/431 and are dropped.
  server.on('clientError', (e: NodeJS.ErrnoException, socket) => {
    const status = e.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : e.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    if (!socket.writable || refused.has(socket as Socket)) return void socket.destroy();
    // The refused connection is not read further (the rest of its bytes stay unread) and closes within the linger bound.
    socket.write(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    lingerClose(socket as Socket);
  });
  return server;
}
