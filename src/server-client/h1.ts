// Owns the ServerClient's plain-http exchanges: a lean HTTP/1.1 keep-alive pool (one request per socket at a time,
// Content-Length or chunked answers). node:http's client costs ~70 µs more per call on loopback, paid on every tool call.
import { connect, type Socket } from 'node:net';

/** Largest response head read (status line and headers). */
const MAX_HEAD_BYTES = 64 * 1024;
/** Largest chunk-size line of a chunked answer (hex size plus extensions). */
const MAX_CHUNK_LINE = 1024;

export interface H1Answer {
  status: number;
  body: Buffer;
}

/** Why an exchange failed: the socket's own error (errno code), a malformed or oversized answer, or a cut-off one. */
export class H1Error extends Error {
  constructor(
    readonly reason: 'socket' | 'malformed' | 'too_large' | 'cut_off',
    /** The socket error's errno code (ECONNREFUSED, ECONNRESET, …) when reason is 'socket'. */
    readonly code: string | undefined,
    /** A reused keep-alive socket failed before any byte of the answer: the request may never have been read. */
    readonly stale: boolean,
  ) {
    super(reason === 'socket' ? `socket error ${code ?? ''}`.trim() : `answer ${reason.replace('_', ' ')}`);
    this.name = 'H1Error';
  }
}

export interface H1Options {
  /** Host and port to connect to (an IPv6 host without brackets). */
  host: string;
  port: number;
  /** The Host header (URL.host: brackets and a non-default port included), as node:http sends it. */
  hostHeader: string;
  maxSockets: number;
  /** An idle kept-alive socket is closed after this long (before the server would close it under a request). */
  idleMs: number;
  /** Largest answer body. */
  maxBodyBytes: number;
}

/** One exchange in flight; cancel() destroys its socket (an answer half read can never be resumed on it). */
export interface H1Exchange {
  cancel(): void;
}

type Done = (err: H1Error | null, answer?: H1Answer) => void;

interface Pending {
  head: string;
  body: Buffer | undefined;
  done: Done;
  conn?: Conn;
  cancelled: boolean;
}

/** Request head bytes must be visible ASCII, space or tab: nothing a header or path could smuggle a line break in. */
const UNSAFE = /[^\t\x20-\x7e]/;
/** A header name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export class H1Pool {
  private readonly idle: Conn[] = [];
  private readonly queue: Pending[] = [];
  private open = 0;
  private closed = false;

  constructor(private readonly opts: H1Options) {}

  /** Idle sockets held (for tests). */
  get idleSockets(): readonly Socket[] {
    return this.idle.map((c) => c.socket);
  }

  /**
   * Sends one request. `path` and header values must already be valid (refused here otherwise, before any byte is
   * written). `done` is called exactly once, unless cancel() came first.
   */
  request(method: string, path: string, headers: Readonly<Record<string, string | number>>, body: Buffer | undefined, done: Done): H1Exchange {
    if (!path.startsWith('/') || /[^\x21-\x7e]/.test(path) || !/^[A-Z]+$/.test(method)) throw new TypeError('request path holds characters HTTP cannot carry');
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.opts.hostHeader}\r\nconnection: keep-alive\r\n`;
    for (const [k, v] of Object.entries(headers)) {
      const value = String(v);
      if (!TOKEN.test(k) || UNSAFE.test(value)) throw new TypeError('request header holds characters HTTP cannot carry');
      head += `${k}: ${value}\r\n`;
    }
    if (body && headers['content-length'] === undefined) head += `content-length: ${body.length}\r\n`;
    head += '\r\n';
    const p: Pending = { head, body, done, cancelled: false };
    if (this.closed) {
      queueMicrotask(() => done(new H1Error('socket', 'ECONNABORTED', false)));
    } else {
      this.dispatch(p);
    }
    return {
      cancel: () => {
        if (p.cancelled) return;
        p.cancelled = true;
        const i = this.queue.indexOf(p);
        if (i >= 0) this.queue.splice(i, 1);
        p.conn?.destroy();
      },
    };
  }

  /** Closes every socket; exchanges in flight fail. */
  destroy(): void {
    this.closed = true;
    for (const c of this.idle.splice(0)) c.destroy();
    for (const p of this.queue.splice(0)) p.done(new H1Error('socket', 'ECONNABORTED', false));
  }

  private dispatch(p: Pending): void {
    const conn = this.idle.pop();
    if (conn) return conn.send(p);
    if (this.open >= this.opts.maxSockets) return void this.queue.push(p);
    this.open++;
    new Conn(this, this.opts).send(p);
  }

  /** A socket finished an exchange and may be reused. */
  released(c: Conn): void {
    const next = this.queue.shift();
    if (next) return c.send(next);
    if (this.closed) return c.destroy();
    this.idle.push(c);
  }

  /** A socket closed (idle or not): it leaves the pool, and a queued request gets a new one. */
  gone(c: Conn): void {
    this.open--;
    const i = this.idle.indexOf(c);
    if (i >= 0) this.idle.splice(i, 1);
    const next = this.queue.shift();
    if (next) this.dispatch(next);
  }
}

/** One socket: idle, or carrying one exchange whose answer it parses as it arrives. */
class Conn {
  readonly socket: Socket;
  private current: Pending | undefined;
  /** Answers completed on this socket (a failure before any byte on a reused one is "stale"). */
  private served = 0;
  private dead = false;
  private buf: Buffer = Buffer.alloc(0);
  private got = 0;
  // The answer being parsed.
  private status = 0;
  private headDone = false;
  private length = -1;
  private chunked = false;
  private untilClose = false;
  private keepAlive = true;
  private parts: Buffer[] = [];
  private size = 0;
  /** Chunked: bytes left in the current chunk (-1: a size line is next; -2: the trailers are next). */
  private chunkLeft = -1;

  constructor(
    private readonly pool: H1Pool,
    private readonly opts: H1Options,
  ) {
    this.socket = connect({ host: opts.host, port: opts.port, noDelay: true });
    this.socket.on('data', (d: Buffer) => this.onData(d));
    this.socket.on('error', (e: NodeJS.ErrnoException) => this.fail(new H1Error('socket', e.code, this.served > 0 && this.got === 0)));
    this.socket.on('end', () => this.onEnd());
    this.socket.on('close', () => {
      if (this.current) this.fail(new H1Error('cut_off', undefined, this.served > 0 && this.got === 0));
      if (!this.dead) {
        this.dead = true;
        this.pool.gone(this);
      }
    });
    this.socket.on('timeout', () => this.destroy());
  }

  send(p: Pending): void {
    if (p.cancelled) return this.pool.released(this);
    this.current = p;
    p.conn = this;
    this.got = 0;
    this.socket.setTimeout(0);
    if (p.body && p.body.length > 0) {
      // One write: head and body in the same segment, as node:http does for a small body.
      this.socket.write(p.body.length <= 16 * 1024 ? Buffer.concat([Buffer.from(p.head, 'latin1'), p.body]) : Buffer.from(p.head, 'latin1'));
      if (p.body.length > 16 * 1024) this.socket.write(p.body);
    } else {
      this.socket.write(p.head, 'latin1');
    }
  }

  destroy(): void {
    this.socket.destroy();
  }

  private onEnd(): void {
    // A body delimited by the connection's close is complete now; anything else was cut off (reported on 'close').
    if (this.current && this.headDone && this.untilClose) this.finish();
    this.socket.end();
  }

  private fail(e: H1Error): void {
    const p = this.current;
    this.current = undefined;
    this.socket.destroy();
    if (p && !p.cancelled) p.done(e);
  }

  private onData(d: Buffer): void {
    if (!this.current) return this.destroy(); // bytes nobody asked for: the socket cannot be trusted any more
    this.got += d.length;
    this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d]);
    try {
      this.parse();
    } catch (e) {
      this.fail(e instanceof H1Error ? e : new H1Error('malformed', undefined, false));
    }
  }

  private parse(): void {
    while (this.current) {
      if (!this.headDone) {
        const end = this.buf.indexOf('\r\n\r\n');
        if (end < 0) {
          if (this.buf.length > MAX_HEAD_BYTES) throw new H1Error('too_large', undefined, false);
          return;
        }
        if (end > MAX_HEAD_BYTES) throw new H1Error('too_large', undefined, false);
        const head = this.buf.toString('latin1', 0, end);
        this.buf = this.buf.subarray(end + 4);
        if (!this.readHead(head)) continue; // an interim 1xx answer: the real one follows
        if (this.length === 0 && !this.chunked && !this.untilClose) return this.finish();
      }
      if (this.chunked) {
        if (!this.readChunks()) return;
        return this.finish();
      }
      const want = this.untilClose ? this.buf.length : Math.min(this.buf.length, this.length - this.size);
      if (want > 0) this.take(this.buf.subarray(0, want));
      this.buf = this.buf.subarray(want);
      if (this.untilClose) return;
      if (this.size === this.length) return this.finish();
      return;
    }
  }

  /** Reads the status line and headers; false for an interim (1xx) answer. */
  private readHead(head: string): boolean {
    const lines = head.split('\r\n');
    const m = /^HTTP\/1\.([01]) ([1-5][0-9][0-9])(?: [^\r\n]*)?$/.exec(lines[0]!);
    if (!m) throw new H1Error('malformed', undefined, false);
    const status = Number(m[2]);
    if (status < 200) {
      if (status === 101) throw new H1Error('malformed', undefined, false);
      return false;
    }
    let length: string | undefined;
    let te: string | undefined;
    let connection = '';
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      // No folded or nameless lines; a name is a token.
      if (colon <= 0 || !TOKEN.test(line.slice(0, colon))) throw new H1Error('malformed', undefined, false);
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') {
        if (!/^[0-9]{1,15}$/.test(value) || (length !== undefined && length !== value)) throw new H1Error('malformed', undefined, false);
        length = value;
      } else if (name === 'transfer-encoding') {
        te = te === undefined ? value.toLowerCase() : `${te}, ${value.toLowerCase()}`;
      } else if (name === 'connection') {
        connection += `${value.toLowerCase()},`;
      }
    }
    this.status = status;
    this.headDone = true;
    this.keepAlive = m[1] === '1' ? !/(^|[\s,])close\s*,/.test(connection) : /(^|[\s,])keep-alive\s*,/.test(connection);
    const noBody = status === 204 || status === 304;
    if (te !== undefined && !noBody) {
      // Only chunked (alone) is understood; a length beside it is a smuggling shape and refused.
      if (te !== 'chunked' || length !== undefined) throw new H1Error('malformed', undefined, false);
      this.chunked = true;
      this.chunkLeft = -1;
    } else if (length !== undefined || noBody) {
      this.length = noBody ? 0 : Number(length);
      if (this.length > this.opts.maxBodyBytes) throw new H1Error('too_large', undefined, false);
    } else {
      this.untilClose = true;
      this.keepAlive = false;
    }
    return true;
  }

  /** Consumes chunked framing from the buffer; true once the last chunk and its trailers are read. */
  private readChunks(): boolean {
    for (;;) {
      if (this.chunkLeft > 0) {
        const n = Math.min(this.chunkLeft, this.buf.length);
        if (n === 0) return false;
        this.take(this.buf.subarray(0, n));
        this.buf = this.buf.subarray(n);
        this.chunkLeft -= n;
        if (this.chunkLeft > 0) return false;
        this.chunkLeft = -3; // the CRLF after the data
      }
      const eol = this.buf.indexOf('\r\n');
      if (eol < 0) {
        if (this.buf.length > MAX_CHUNK_LINE) throw new H1Error('malformed', undefined, false);
        return false;
      }
      const line = this.buf.toString('latin1', 0, eol);
      this.buf = this.buf.subarray(eol + 2);
      if (this.chunkLeft === -3) {
        if (line !== '') throw new H1Error('malformed', undefined, false);
        this.chunkLeft = -1;
      } else if (this.chunkLeft === -2) {
        if (line === '') return true; // the end of the trailers
        if (line.length > MAX_CHUNK_LINE) throw new H1Error('malformed', undefined, false);
      } else {
        const m = /^([0-9A-Fa-f]{1,8})(?:[ \t]*;[^\r\n]*)?$/.exec(line);
        if (!m) throw new H1Error('malformed', undefined, false);
        const n = parseInt(m[1]!, 16);
        this.chunkLeft = n === 0 ? -2 : n;
      }
    }
  }

  private take(b: Buffer): void {
    this.size += b.length;
    if (this.size > this.opts.maxBodyBytes) throw new H1Error('too_large', undefined, false);
    this.parts.push(b);
  }

  private finish(): void {
    const p = this.current!;
    const answer: H1Answer = { status: this.status, body: this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts) };
    const reusable = this.keepAlive && !this.untilClose && this.buf.length === 0;
    this.current = undefined;
    this.served++;
    this.headDone = false;
    this.length = -1;
    this.chunked = false;
    this.untilClose = false;
    this.keepAlive = true;
    this.parts = [];
    this.size = 0;
    if (reusable) {
      this.socket.setTimeout(this.opts.idleMs);
      this.pool.released(this);
    } else {
      this.destroy();
    }
    if (!p.cancelled) p.done(null, answer);
  }
}
